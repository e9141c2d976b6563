package dev.lacewing.core.command.server;

import dev.lacewing.api.StorageEngine;
import dev.lacewing.core.command.Command;
import dev.lacewing.core.diagnostics.LatencyTracking;
import dev.lacewing.core.persistence.BackgroundSave;
import dev.lacewing.core.persistence.Snapshots;
import dev.lacewing.core.persistence.aof.AppendOnlyFile;
import dev.lacewing.core.pubsub.SubscriptionKind;
import dev.lacewing.core.server.ServerState;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import org.HdrHistogram.Histogram;

/** The text of INFO, section by section, with Redis's field names. */
final class InfoReport {

    private InfoReport() {
    }

    static String render(ServerState state, Set<String> sections) {
        StringBuilder text = new StringBuilder();
        for (String section : sections) {
            int before = text.length();
            switch (section) {
                case "server" -> server(state, text);
                case "clients" -> clients(state, text);
                case "memory" -> memory(state, text);
                case "persistence" -> persistence(state, text);
                case "stats" -> stats(state, text);
                case "replication" -> replication(text);
                case "cpu" -> cpu(text);
                case "commandstats" -> commandstats(state, text);
                case "errorstats" -> errorstats(state, text);
                case "latencystats" -> latencystats(state, text);
                case "keyspace" -> keyspace(state, text);
                default -> {
                }
            }
            if (text.length() > before) {
                text.append("\r\n");
            }
        }
        if (text.length() >= 2) {
            text.setLength(text.length() - 2);
        }
        return text.toString();
    }

    private static void line(StringBuilder text, String name, Object value) {
        text.append(name).append(':').append(value).append("\r\n");
    }

    private static void server(ServerState state, StringBuilder text) {
        text.append("# Server\r\n");
        line(text, "redis_version", ServerState.REDIS_VERSION);
        line(text, "redis_git_sha1", "00000000");
        line(text, "redis_git_dirty", 0);
        line(text, "redis_mode", "standalone");
        line(text, "os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
            + System.getProperty("os.arch"));
        line(text, "arch_bits", 64);
        line(text, "multiplexing_api", state.transport());
        line(text, "java_version", System.getProperty("java.version"));
        line(text, "java_vm", System.getProperty("java.vm.name"));
        line(text, "process_id", ProcessHandle.current().pid());
        line(text, "process_supervised", "no");
        line(text, "run_id", state.runId());
        line(text, "tcp_port", state.port());
        line(text, "server_time_usec", System.currentTimeMillis() * 1000);
        line(text, "uptime_in_seconds", state.uptimeSeconds());
        line(text, "uptime_in_days", state.uptimeSeconds() / 86400);
        line(text, "hz", state.settings().value("hz"));
        line(text, "configured_hz", state.settings().value("hz"));
        line(text, "executable", ProcessHandle.current().info().command().orElse(""));
        line(text, "config_file", state.settings().configFile());
        line(text, "lacewing_version", ServerState.VERSION);
        line(text, "lacewing_engine", state.engineName());
        line(text, "lacewing_storage", state.storageName());
        state.storage().info().forEach((name, value) -> line(text, name, value));
        line(text, "lacewing_transport", state.transport());
        line(text, "lacewing_transport_notes", state.transportNotes().isEmpty() ? "none" : state.transportNotes());
        line(text, "lacewing_threading", state.threading().strategy());
        line(text, "lacewing_threads", state.threading().workers());
        line(text, "lacewing_plugin_mode", state.pluginMode());
        line(text, "lacewing_jvm_flags", ServerState.jvmFlags());
        line(text, "lacewing_gc", ServerState.collectors());
    }

    private static void clients(ServerState state, StringBuilder text) {
        text.append("# Clients\r\n");
        line(text, "connected_clients", state.clients().size());
        line(text, "maxclients", state.settings().value("maxclients"));
        line(text, "blocked_clients", state.blockedClients());
        line(text, "tracking_clients", state.tracking().clients());
    }

    /** used_memory_peak: the heap committed, or what is used when more. */
    static long peakMemory(long used) {
        return Math.max(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted());
    }

    /**
     * used_memory is what Redis's counts and what maxmemory is held against ({@link ServerState#usedMemory},
     * which the metrics endpoint reports too): the keyspace's live entries and the structures indexing
     * them (lacewing_used_memory_keyspace) plus the clients' buffers (mem_clients_normal), read once
     * here so that the report's figures add up. Page space awaiting reuse or compaction is left out,
     * as Redis leaves freed space inside allocator pages to fragmentation; lacewing_used_memory_allocated
     * includes it. used_memory_rss is the whole process, as Redis's, and mem_fragmentation_ratio their
     * quotient.
     */
    private static void memory(ServerState state, StringBuilder text) {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long heapUsed = memory.getHeapMemoryUsage().getUsed();
        long nonHeap = memory.getNonHeapMemoryUsage().getUsed();
        long rss = residentSetSize();
        long keyspace = state.keyspaceMemory();
        long clients = state.clientBufferBytes();
        long used = keyspace + clients;
        text.append("# Memory\r\n");
        line(text, "used_memory", used);
        line(text, "used_memory_human", human(used));
        line(text, "used_memory_rss", rss);
        line(text, "used_memory_rss_human", human(rss));
        long peak = peakMemory(used);
        line(text, "used_memory_peak", peak);
        line(text, "used_memory_peak_human", human(peak));
        line(text, "used_memory_heap", heapUsed);
        line(text, "used_memory_heap_committed", memory.getHeapMemoryUsage().getCommitted());
        line(text, "used_memory_non_heap", nonHeap);
        long system = totalSystemMemory();
        line(text, "total_system_memory", system);
        line(text, "total_system_memory_human", human(system));
        long maxmemory = state.settings().longValue("maxmemory");
        line(text, "maxmemory", maxmemory);
        line(text, "maxmemory_human", human(maxmemory));
        line(text, "maxmemory_policy", state.settings().value("maxmemory-policy"));
        line(text, "mem_fragmentation_ratio", String.format(Locale.ROOT, "%.2f", used == 0 ? 0.0 : (double) rss / used));
        line(text, "mem_fragmentation_bytes", rss - used);
        line(text, "mem_clients_normal", clients);
        line(text, "lacewing_used_memory_keyspace", keyspace);
        long allocated = state.engine().allocatedMemory();
        if (allocated >= 0) {
            line(text, "lacewing_used_memory_allocated", allocated);
        }
        line(text, "mem_allocator", "jvm");
    }

    /** The machine's physical memory, MemTotal of /proc/meminfo, as Redis reads it; 0 where there is none. */
    private static long totalSystemMemory() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (Exception e) {
            return 0;
        }
        return 0;
    }

    /** RSS from /proc/self/statm, 0 where there is none. */
    private static long residentSetSize() {
        try {
            String[] fields = Files.readString(Path.of("/proc/self/statm")).trim().split("\\s+");
            return Long.parseLong(fields[1]) * 4096;
        } catch (Exception e) {
            return 0;
        }
    }

    private static String human(long bytes) {
        if (bytes < 1024) {
            return bytes + "B";
        }
        String[] units = {"K", "M", "G", "T"};
        double value = bytes;
        int unit = -1;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%.2f%s", value, units[unit]);
    }

    /**
     * The fields of Redis 7.0 that are true here: the RDB file's saves and last load, BGSAVE's
     * progress (rdb_last_cow_size: the bytes of entries written early because they were about to
     * change, the copy a save without fork makes). No AOF yet, so it reports idle.
     */
    private static void persistence(ServerState state, StringBuilder text) {
        Snapshots snapshots = state.snapshots();
        BackgroundSave background = state.backgroundSave();
        text.append("# Persistence\r\n");
        line(text, "loading", 0);
        line(text, "async_loading", 0);
        line(text, "rdb_changes_since_last_save", background.changesSinceLastSave());
        line(text, "rdb_bgsave_in_progress", background.inProgress() ? 1 : 0);
        line(text, "rdb_last_save_time", snapshots.lastSaveSeconds());
        line(text, "rdb_last_bgsave_status", background.lastFailed() ? "err" : "ok");
        line(text, "rdb_last_bgsave_time_sec", background.lastSeconds());
        line(text, "rdb_current_bgsave_time_sec", background.currentSeconds());
        line(text, "rdb_saves", snapshots.saves());
        line(text, "rdb_last_cow_size", background.lastCopiedBytes());
        line(text, "rdb_last_load_keys_expired", snapshots.lastLoadKeysExpired());
        line(text, "rdb_last_load_keys_loaded", snapshots.lastLoadKeysLoaded());
        AppendOnlyFile aof = state.aof();
        line(text, "aof_enabled", aof.enabled() ? 1 : 0);
        line(text, "aof_rewrite_in_progress", aof.rewriteInProgress() ? 1 : 0);
        line(text, "aof_rewrite_scheduled", aof.rewriteScheduled() ? 1 : 0);
        line(text, "aof_last_rewrite_time_sec", aof.lastRewriteSeconds());
        line(text, "aof_current_rewrite_time_sec", aof.currentRewriteSeconds());
        line(text, "aof_last_bgrewrite_status", aof.lastRewriteOk() ? "ok" : "err");
        line(text, "aof_rewrites", aof.rewrites());
        line(text, "aof_last_write_status", aof.lastWriteOk() ? "ok" : "err");
        if (aof.enabled()) {
            line(text, "aof_current_size", aof.currentSize());
            line(text, "aof_base_size", aof.baseSize());
            line(text, "aof_pending_rewrite", 0);
            line(text, "aof_buffer_length", aof.bufferLength());
            line(text, "aof_pending_bio_fsync", 0);
            line(text, "aof_delayed_fsync", 0);
        }
    }

    private static void stats(ServerState state, StringBuilder text) {
        text.append("# Stats\r\n");
        line(text, "total_connections_received", state.connectionsReceived());
        line(text, "total_commands_processed", state.commandsProcessed());
        line(text, "instantaneous_ops_per_sec", state.commandsPerSecond());
        line(text, "total_net_input_bytes", state.netInputBytes());
        line(text, "total_net_output_bytes", state.netOutputBytes());
        line(text, "instantaneous_input_kbps", String.format(Locale.ROOT, "%.2f", state.inputKilobytesPerSecond()));
        line(text, "instantaneous_output_kbps", String.format(Locale.ROOT, "%.2f", state.outputKilobytesPerSecond()));
        line(text, "rejected_connections", state.rejectedConnections());
        line(text, "expired_keys", state.engine().expiredKeys());
        line(text, "evicted_keys", state.engine().evictedKeys());
        line(text, "tracking_total_keys", state.tracking().keys());
        line(text, "tracking_total_items",
            state.engine().keyspace(0).trackedItems());
        line(text, "tracking_total_prefixes", state.tracking().prefixCount());
        line(text, "keyspace_hits", state.keyspaceHits());
        line(text, "keyspace_misses", state.keyspaceMisses());
        line(text, "pubsub_channels", state.pubSub().channels(SubscriptionKind.CHANNEL));
        line(text, "pubsub_patterns", state.pubSub().patterns());
        line(text, "pubsubshard_channels", state.pubSub().channels(SubscriptionKind.SHARD));
        line(text, "total_error_replies", state.errorReplies());
        line(text, "client_output_buffer_limit_disconnections", state.outputLimitDisconnections());
        line(text, "total_reads_processed", state.readsProcessed());
        line(text, "total_writes_processed", state.writesProcessed());
    }

    private static void replication(StringBuilder text) {
        text.append("# Replication\r\n");
        line(text, "role", "master");
        line(text, "connected_slaves", 0);
    }

    private static void cpu(StringBuilder text) {
        text.append("# CPU\r\n");
        double[] times = processCpuSeconds();
        line(text, "used_cpu_sys", String.format(Locale.ROOT, "%.6f", times[0]));
        line(text, "used_cpu_user", String.format(Locale.ROOT, "%.6f", times[1]));
        line(text, "used_cpu_sys_children", "0.000000");
        line(text, "used_cpu_user_children", "0.000000");
    }

    /** System and user CPU seconds of this process, from /proc/self/stat (clock ticks of 1/100 s). */
    private static double[] processCpuSeconds() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return new double[] {Long.parseLong(fields[12]) / 100.0, Long.parseLong(fields[11]) / 100.0};
        } catch (Exception e) {
            return new double[] {0, 0};
        }
    }

    private static void commandstats(ServerState state, StringBuilder text) {
        text.append("# Commandstats\r\n");
        for (Command<?> command : state.commands().commands()) {
            commandstat(command, text);
            command.subcommands().forEach(subcommand -> commandstat(subcommand, text));
        }
    }

    /** One command's line, under its full name ({@code cmdstat_client|info}); none for a command never called. */
    private static void commandstat(Command<?> command, StringBuilder text) {
        long calls = command.calls();
        if (calls == 0 && command.rejectedCalls() == 0 && command.failedCalls() == 0) {
            return;
        }
        long micros = command.microseconds();
        line(text, "cmdstat_" + command.spec().name(), "calls=" + calls + ",usec=" + micros + ",usec_per_call="
            + String.format(Locale.ROOT, "%.2f", calls == 0 ? 0.0 : (double) micros / calls)
            + ",rejected_calls=" + command.rejectedCalls() + ",failed_calls=" + command.failedCalls());
    }

    /** One line per error prefix ever replied, as {@code errorstat_ERR:count=3}. */
    private static void errorstats(ServerState state, StringBuilder text) {
        text.append("# Errorstats\r\n");
        state.errorStats().counts().forEach((prefix, count) -> line(text, "errorstat_" + prefix, "count=" + count));
    }

    /** Each tracked command's percentiles, {@code latency_percentiles_usec_get:p50=...}; none while tracking is off. */
    private static void latencystats(ServerState state, StringBuilder text) {
        text.append("# Latencystats\r\n");
        LatencyTracking tracking = state.latencyTracking();
        if (!tracking.enabled()) {
            return;
        }
        for (Command<?> command : state.commands().commands()) {
            latencystat(tracking, command, text);
            command.subcommands().forEach(subcommand -> latencystat(tracking, subcommand, text));
        }
    }

    private static void latencystat(LatencyTracking tracking, Command<?> command, StringBuilder text) {
        Histogram histogram = command.latency().snapshot();
        if (histogram.getTotalCount() > 0) {
            text.append(tracking.percentilesLine(command.spec().name(), histogram)).append("\r\n");
        }
    }

    private static void keyspace(ServerState state, StringBuilder text) {
        text.append("# Keyspace\r\n");
        StorageEngine engine = state.engine();
        int databases = (int) state.settings().longValue("databases");
        for (int db = 0; db < databases; db++) {
            long keys = engine.approximateSize(db);
            if (keys > 0) {
                line(text, "db" + db, "keys=" + keys + ",expires=" + engine.approximateExpiringSize(db)
                   );
            }
        }
    }
}
