package dev.lacewing.core.config;

import dev.lacewing.api.SettingSpec;
import dev.lacewing.api.Settings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

/**
 * The server's settings: one typed table ({@link #TABLE}) serves the config file, the
 * {@code --name value} flags, CONFIG GET/SET and the documentation.
 *
 * <p>Thread rule: values are read from any thread; CONFIG SET writes them on a worker thread,
 * each value being published atomically.
 */
public final class Config implements Settings {

    private static final Setting.Mutability MUTABLE = Setting.Mutability.MUTABLE;
    private static final Setting.Mutability FIXED = Setting.Mutability.FIXED;
    private static final Setting.Mutability PROTECTED = Setting.Mutability.PROTECTED;

    private static final Setting THREADS = new Setting("threads", List.of(),
        Integer.toString(defaultThreads(Runtime.getRuntime().availableProcessors())), FIXED, Setting.Type.INTEGER,
        "worker threads; default three quarters of the cores, at least 1 (io-threads sets it too)");

    /**
     * Three quarters of the cores, at least one: the rest is left to the kernel's network stack and
     * to clients on the same machine, as Redis advises for io-threads (2-3 of 4 cores, 6 of 8). On a
     * 2-core machine that is one thread: measured there, one shard served GET and SET at pipeline 1
     * at 0.67-0.86x redis-server's CPU per request where two needed 1.04-1.30x (the cross-thread
     * hop's wake-ups on cores the client shares), for 5-10% less at pipeline 30
     * (docs/benchmarks.md, "Throughput and CPU").
     */
    static int defaultThreads(int cores) {
        return Math.max(1, cores * 3 / 4);
    }

    /** Every setting of core's own, under Redis's names where Redis has one; plugins declare theirs ({@link #withPlugins}). */
    public static final List<Setting> TABLE = List.of(
        new Setting("port", List.of(), "6379", MUTABLE, Setting.Type.INTEGER, "TCP port; 0 picks a free one at "
            + "start-up, and closes the TCP listener when set at runtime", 0, 65535),
        new Setting("bind", List.of(), "127.0.0.1 -::1", FIXED, Setting.Type.WORDS,
            "addresses to listen on; a leading - means: skip it if the address is not available"),
        new Setting("protected-mode", List.of(), "yes", MUTABLE, Setting.Type.BOOLEAN,
            "without a password, refuse clients that are not on the loopback interface"),
        new Setting("requirepass", List.of(), "", MUTABLE, Setting.Type.STRING,
            "the default ACL user's password (AUTH password, HELLO AUTH default); empty for nopass"),
        new Setting("databases", List.of(), "16", FIXED, Setting.Type.INTEGER, "number of databases", 1,
            Integer.MAX_VALUE),
        new Setting("maxclients", List.of(), "10000", MUTABLE, Setting.Type.INTEGER, "most simultaneous clients", 1,
            4294967295L),
        new Setting("timeout", List.of(), "0", MUTABLE, Setting.Type.INTEGER,
            "close a client idle for this many seconds; 0 never", 0, Integer.MAX_VALUE),
        new Setting("proto-max-bulk-len", List.of(), "536870912", MUTABLE, Setting.Type.MEMORY,
            "longest bulk string a request may carry", 1024 * 1024, Long.MAX_VALUE),
        new Setting("zset-max-listpack-entries", List.of("zset-max-ziplist-entries"), "128", MUTABLE,
            Setting.Type.INTEGER, "most members a sorted set keeps in its compact (listpack) form", 0, Long.MAX_VALUE),
        new Setting("zset-max-listpack-value", List.of("zset-max-ziplist-value"), "64", MUTABLE,
            Setting.Type.MEMORY, "longest member, in bytes, a sorted set keeps in its compact (listpack) form", 0,
            Long.MAX_VALUE),
        new Setting("client-query-buffer-limit", List.of(), "1073741824", MUTABLE, Setting.Type.MEMORY,
            "most bytes buffered for one client's unexecuted requests; over it the client is closed", 1024 * 1024,
            Long.MAX_VALUE),
        new Setting("client-output-buffer-limit", List.of(), OutputBufferLimits.DEFAULT.text(), MUTABLE,
            Setting.Type.OUTPUT_BUFFER_LIMITS, "per client class (normal, replica, pubsub): hard limit, soft limit, "
            + "soft seconds of reply bytes buffered past what the socket took; a client over the hard limit, or over "
            + "the soft one for that long, is closed; 0 for none. Normal clients also stop running their pipeline "
            + "while the socket is full (see docs/limits.md)"),
        new Setting("maxmemory", List.of(), "0", MUTABLE, Setting.Type.MEMORY,
            "most bytes the keyspace may hold (live bytes: see docs/architecture.md); over it, maxmemory-policy "
            + "evicts keys or write commands are refused; 0 for no limit", 0, Long.MAX_VALUE),
        new Setting("maxmemory-policy", List.of(), "noeviction", MUTABLE, Setting.Type.EVICTION_POLICY,
            "which keys go over maxmemory: volatile-lru, volatile-lfu, volatile-random, volatile-ttl, allkeys-lru, "
            + "allkeys-lfu, allkeys-random or noeviction (refuse write commands)"),
        new Setting("busy-reply-threshold", List.of("lua-time-limit"), "5000", MUTABLE, Setting.Type.INTEGER,
            "milliseconds a script may run before other clients are answered BUSY and SCRIPT KILL may stop it (one "
            + "that has not written); 0 for at once", 0, Long.MAX_VALUE),
        new Setting("tracking-table-max-keys", List.of(), "1000000", MUTABLE, Setting.Type.INTEGER,
            "most keys tracked for client-side caching (CLIENT TRACKING), shared evenly among partitions; over it, "
            + "the oldest keys of a partition are dropped and their clients invalidated; 0 for no limit",
            0, Long.MAX_VALUE),
        new Setting("maxmemory-eviction-tenacity", List.of(), "10", MUTABLE, Setting.Type.INTEGER,
            "how long one eviction pass may run (a command's, CONFIG SET maxmemory's, each background run): 50 "
            + "microseconds per step up to 10 (500), 15% more per step above, no limit at 100", 0, 100),
        new Setting("maxmemory-samples", List.of(), "5", MUTABLE, Setting.Type.INTEGER,
            "keys sampled per database for each LRU, LFU or TTL eviction", 1, Integer.MAX_VALUE),
        new Setting("lfu-log-factor", List.of(), "10", MUTABLE, Setting.Type.INTEGER,
            "how slowly the LFU counter grows: an access increments it with probability 1/((counter-5)*factor+1)",
            0, Integer.MAX_VALUE),
        new Setting("lfu-decay-time", List.of(), "1", MUTABLE, Setting.Type.INTEGER,
            "minutes without access for the LFU counter to lose one; 0 never decays", 0, Integer.MAX_VALUE),
        new Setting("hll-sparse-max-bytes", List.of(), "3000", MUTABLE, Setting.Type.MEMORY,
            "largest sparse HyperLogLog value, header included; an addition that would grow it further turns it dense",
            0, Long.MAX_VALUE),
        new Setting("enable-debug-command", List.of(), "no", FIXED, Setting.Type.PROTECTED_ACCESS,
            "allow DEBUG: yes, local (clients connected from 127.0.0.1 or ::1 only) or no"),
        new Setting("enable-module-command", List.of(), "no", FIXED, Setting.Type.PROTECTED_ACCESS,
            "allow MODULE LOAD and MODULE UNLOAD: yes, local (clients connected from 127.0.0.1 or ::1 only) or no"),
        new Setting("enable-protected-configs", List.of(), "no", FIXED, Setting.Type.PROTECTED_ACCESS,
            "allow CONFIG SET of protected settings (dir and dbfilename): yes, local (clients connected from "
            + "127.0.0.1 or ::1 only) or no"),
        new Setting("notify-keyspace-events", List.of(), "", MUTABLE, Setting.Type.KEYSPACE_EVENTS,
            "keyspace notifications published to __keyspace@<db>__:<key> and __keyevent@<db>__:<event>, as classes: "
            + "K keyspace channel, E keyevent channel, g generic (del, expire, rename...), $ string, l list, s set, "
            + "h hash, z sorted set, x expired, e evicted, t stream, m key miss, d module, n new key, A alias for "
            + "g$lshzxet; K or E and at least one class are needed for any event; empty (the default) for none. "
            + "m and d are accepted but nothing publishes key-miss or module events yet"),
        new Setting("dir", List.of(), Path.of("").toAbsolutePath().toString(), PROTECTED, Setting.Type.DIRECTORY,
            "the working directory: where the RDB file is written and read; must exist"),
        new Setting("dbfilename", List.of(), "dump.rdb", PROTECTED, Setting.Type.FILE_NAME,
            "the RDB file's name in dir: SAVE and SHUTDOWN write it, start-up loads it"),
        new Setting("save", List.of(), "3600 1 300 100 60 10000", MUTABLE, Setting.Type.SAVE_POINTS,
            "save points, pairs of seconds and changes; \"\" for none. SHUTDOWN and SIGTERM save when there is "
            + "one; the schedule itself waits for BGSAVE, which Lacewing does not have yet. In a config file the "
            + "first save line replaces the default and later ones add to it"),
        new Setting("rdbcompression", List.of(), "yes", MUTABLE, Setting.Type.BOOLEAN,
            "LZF-compress strings in the RDB file where Redis would (over 20 bytes, saving at least 4)"),
        new Setting("rdbchecksum", List.of(), "yes", FIXED, Setting.Type.BOOLEAN,
            "end the RDB file with its CRC64 and check it on load; with no, the trailer is zero and not checked"),
        new Setting("stop-writes-on-bgsave-error", List.of(), "yes", MUTABLE, Setting.Type.BOOLEAN,
            "refuse writes after a failed background save; accepted for redis.conf compatibility: without BGSAVE "
            + "no background save fails"),
        new Setting("loglevel", List.of(), "notice", MUTABLE, Setting.Type.LOG_LEVEL,
            "debug, verbose, notice or warning"),
        new Setting("slowlog-log-slower-than", List.of(), "10000", MUTABLE, Setting.Type.INTEGER,
            "log commands that run at least this many microseconds in the slow log; 0 logs every command, -1 none",
            -1, Long.MAX_VALUE),
        new Setting("slowlog-max-len", List.of(), "128", MUTABLE, Setting.Type.INTEGER,
            "most entries the slow log keeps; the oldest go first", 0, Long.MAX_VALUE),
        new Setting("latency-monitor-threshold", List.of(), "0", MUTABLE, Setting.Type.INTEGER,
            "record in the latency monitor (LATENCY LATEST, HISTORY) the commands that take at least this many "
            + "milliseconds; 0 turns it off", 0, Long.MAX_VALUE),
        new Setting("hz", List.of(), "10", MUTABLE, Setting.Type.HZ,
            "background tasks (active expiry) per second, clamped to 1..500; a CONFIG SET applies from the next cycle", 0,
            Integer.MAX_VALUE),
        new Setting("hash-max-listpack-entries", List.of("hash-max-ziplist-entries"), "512", MUTABLE,
            Setting.Type.INTEGER, "most fields a hash keeps in the compact listpack encoding", 0, Long.MAX_VALUE),
        new Setting("hash-max-listpack-value", List.of("hash-max-ziplist-value"), "64", MUTABLE, Setting.Type.MEMORY,
            "longest field or value, in bytes, a hash keeps in the listpack encoding", 0, Long.MAX_VALUE),
        new Setting("set-max-intset-entries", List.of(), "512", MUTABLE, Setting.Type.INTEGER,
            "most members a set of integers keeps in the compact intset encoding", 0, Long.MAX_VALUE),
        new Setting("list-max-listpack-size", List.of("list-max-ziplist-size"), "-2", MUTABLE, Setting.Type.INTEGER,
            "entries per list node when positive; when negative its byte limit: -1 4 KiB, -2 8 KiB ... -5 64 KiB",
            Integer.MIN_VALUE, Integer.MAX_VALUE),
        new Setting("list-compress-depth", List.of(), "0", MUTABLE, Setting.Type.INTEGER,
            "list nodes left uncompressed at each end, the others LZF-compressed (0: none); a list keeps the value it was made with",
            0, Integer.MAX_VALUE),
        new Setting("stream-node-max-bytes", List.of(), "4096", MUTABLE, Setting.Type.MEMORY,
            "most bytes a stream node packs before a new node starts (0: no bound but 1 GB)", 0, Long.MAX_VALUE),
        new Setting("stream-node-max-entries", List.of(), "100", MUTABLE, Setting.Type.INTEGER,
            "most entries, deleted ones included, a stream node holds before a new node starts (0: no bound)", 0,
            Long.MAX_VALUE),
        new Setting("keyspace-layout", List.of(), "compact", FIXED, Setting.Type.KEYSPACE_LAYOUT,
            "how entries are stored: compact (packed in byte pages, no Java object per key), the only layout"),
        new Setting("engine", List.of(), "shared-nothing", FIXED, Setting.Type.STRING,
            "storage engine plugin: shared-nothing or multithread"),
        new Setting("storage", List.of(), "compact", FIXED, Setting.Type.STRING,
            "storage plugin the keyspace's tables come from: compact (entries packed in byte pages, in memory)"
            + " or tiered (long strings in files on disk)"),
        new Setting("transport", List.of(), "auto", FIXED, Setting.Type.STRING,
            "network transport plugin: auto (io_uring, then epoll, then nio), io_uring, epoll or nio"),
        new Setting("threading", List.of(), "per-core", FIXED, Setting.Type.STRING,
            "threading strategy: per-core or single"),
        THREADS,
        new Setting("plugin-mode", List.of(), "jpms", FIXED, Setting.Type.STRING,
            "how the launcher loads plugins/: jpms (module layer), osgi (embedded Felix) or classpath (jars "
            + "already on the class path)"),
        new Setting("plugins-dir", List.of(), "plugins", FIXED, Setting.Type.STRING, "where the launcher finds plugin jars; relative to the distribution's directory"),
        // Redis 7.0's other directives, under its names, defaults, bounds and choices (config.c's
        // standardConfig table): a redis.conf that sets them starts Lacewing, which lists them
        // in CONFIG GET and logs at start-up that they have no effect.
        new Setting("acl-pubsub-default", List.of(), "resetchannels", MUTABLE, Setting.Type.ENUM,
            "the channels a new ACL user may use: none (resetchannels) or all (allchannels)", Long.MIN_VALUE,
            Long.MAX_VALUE, List.of("allchannels", "resetchannels"), true),
        new Setting("aclfile", List.of(), "", FIXED, Setting.Type.STRING,
            "file of ACL users that ACL LOAD reads and ACL SAVE writes; excludes user directives"),
        new Setting("acllog-max-len", List.of(), "128", MUTABLE, Setting.Type.INTEGER,
            "most entries ACL LOG keeps", 0, Long.MAX_VALUE),
        inert("active-defrag-cycle-max", List.of(), "25", MUTABLE, Setting.Type.INTEGER, 1, 99),
        inert("active-defrag-cycle-min", List.of(), "1", MUTABLE, Setting.Type.INTEGER, 1, 99),
        inert("active-defrag-ignore-bytes", List.of(), "104857600", MUTABLE, Setting.Type.MEMORY, 0, Long.MAX_VALUE),
        inert("active-defrag-max-scan-fields", List.of(), "1000", MUTABLE, Setting.Type.INTEGER, 1, Long.MAX_VALUE),
        inert("active-defrag-threshold-lower", List.of(), "10", MUTABLE, Setting.Type.INTEGER, 0, 1000),
        inert("active-defrag-threshold-upper", List.of(), "100", MUTABLE, Setting.Type.INTEGER, 0, 1000),
        inert("active-expire-effort", List.of(), "1", MUTABLE, Setting.Type.INTEGER, 1, 10),
        inert("activedefrag", List.of(), "no", MUTABLE, Setting.Type.BOOLEAN),
        inert("activerehashing", List.of(), "yes", MUTABLE, Setting.Type.BOOLEAN),
        inert("always-show-logo", List.of(), "no", FIXED, Setting.Type.BOOLEAN),
        inert("aof-disable-auto-gc", List.of(), "no", MUTABLE, Setting.Type.BOOLEAN),
        new Setting("aof-load-truncated", List.of(), "yes", MUTABLE, Setting.Type.BOOLEAN,
            "at start-up, cut an AOF whose last file ends inside a command back to its last whole command and load "
            + "it, with a warning; no refuses to start"),
        inert("aof-rewrite-incremental-fsync", List.of(), "yes", MUTABLE, Setting.Type.BOOLEAN),
        inert("aof-timestamp-enabled", List.of(), "no", MUTABLE, Setting.Type.BOOLEAN),
        new Setting("aof-use-rdb-preamble", List.of(), "yes", MUTABLE, Setting.Type.BOOLEAN,
            "the AOF's base file: yes, an RDB image (<name>.<seq>.base.rdb); no, the commands that rebuild the "
            + "dataset (<name>.<seq>.base.aof); read at each rewrite"),
        inert("aof_rewrite_cpulist", List.of(), "", FIXED, Setting.Type.STRING),
        new Setting("appenddirname", List.of(), "appendonlydir", FIXED, Setting.Type.STRING,
            "the AOF's directory in dir: its manifest, base and incr files"),
        new Setting("appendfilename", List.of(), "appendonly.aof", FIXED, Setting.Type.STRING,
            "the prefix of the AOF's file names: <name>.manifest, <name>.<seq>.base.rdb (or .base.aof), "
            + "<name>.<seq>.incr.aof"),
        new Setting("appendfsync", List.of(), "everysec", MUTABLE, Setting.Type.ENUM,
            "always: no reply leaves before its write is forced to disk (one fsync per event-loop batch); everysec: "
            + "a background fsync once a second; no: the OS decides", Long.MIN_VALUE, Long.MAX_VALUE,
            List.of("everysec", "always", "no"), true),
        new Setting("appendonly", List.of(), "no", MUTABLE, Setting.Type.BOOLEAN,
            "keep the append-only file; at start-up it is loaded instead of the RDB file. CONFIG SET appendonly yes "
            + "starts it with a rewrite"),
        new Setting("auto-aof-rewrite-min-size", List.of(), "67108864", MUTABLE, Setting.Type.MEMORY,
            "no automatic rewrite while the AOF is smaller", 0, Long.MAX_VALUE),
        new Setting("auto-aof-rewrite-percentage", List.of(), "100", MUTABLE, Setting.Type.INTEGER,
            "rewrite the AOF when it grew by this percentage over its size after the last rewrite; 0 never",
            0, Integer.MAX_VALUE),
        inert("bgsave_cpulist", List.of(), "", FIXED, Setting.Type.STRING),
        inert("bind-source-addr", List.of(), "", MUTABLE, Setting.Type.STRING),
        inert("bio_cpulist", List.of(), "", FIXED, Setting.Type.STRING),
        inert("cluster-allow-pubsubshard-when-down", List.of(), "yes", MUTABLE, Setting.Type.BOOLEAN),
        inert("cluster-allow-reads-when-down", List.of(), "no", MUTABLE, Setting.Type.BOOLEAN),
        inert("cluster-allow-replica-migration", List.of(), "yes", MUTABLE, Setting.Type.BOOLEAN),
        inert("cluster-announce-bus-port", List.of(), "0", MUTABLE, Setting.Type.INTEGER, 0, 65535),
        inert("cluster-announce-hostname", List.of(), "", MUTABLE, Setting.Type.STRING),
        inert("cluster-announce-ip", List.of(), "", MUTABLE, Setting.Type.STRING),
        inert("cluster-announce-port", List.of(), "0", MUTABLE, Setting.Type.INTEGER, 0, 65535),
        inert("cluster-announce-tls-port", List.of(), "0", MUTABLE, Setting.Type.INTEGER, 0, 65535),
        inert("cluster-config-file", List.of(), "nodes.conf", FIXED, Setting.Type.STRING),
        inert("cluster-enabled", List.of(), "no", FIXED, Setting.Type.BOOLEAN),
        inert("cluster-link-sendbuf-limit", List.of(), "0", MUTABLE, Setting.Type.MEMORY, 0, Long.MAX_VALUE),
        inert("cluster-migration-barrier", List.of(), "1", MUTABLE, Setting.Type.INTEGER, 0, Integer.MAX_VALUE),
        inert("cluster-node-timeout", List.of(), "15000", MUTABLE, Setting.Type.INTEGER, 0, Long.MAX_VALUE),
        inert("cluster-port", List.of(), "0", FIXED, Setting.Type.INTEGER, 0, 65535),
        inert("cluster-preferred-endpoint-type", List.of(), "ip", MUTABLE, "ip", "hostname", "unknown-endpoint"),
        inert("cluster-replica-no-failover", List.of("cluster-slave-no-failover"), "no", MUTABLE, Setting.Type.BOOLEAN),
        inert("cluster-replica-validity-factor", List.of("cluster-slave-validity-factor"), "10", MUTABLE, Setting.Type.INTEGER, 0, Integer.MAX_VALUE),
        inert("cluster-require-full-coverage", List.of(), "yes", MUTABLE, Setting.Type.BOOLEAN),
        inert("crash-log-enabled", List.of(), "yes", MUTABLE, Setting.Type.BOOLEAN),
        inert("crash-memcheck-enabled", List.of(), "yes", MUTABLE, Setting.Type.BOOLEAN),
        new Setting("daemonize", List.of(), "no", FIXED, Setting.Type.BOOLEAN,
            "yes is refused at start-up: a JVM cannot fork; run bin/lacewing-server under a supervisor or with nohup"),
        inert("disable-thp", List.of(), "yes", FIXED, Setting.Type.BOOLEAN),
        inert("dynamic-hz", List.of(), "yes", MUTABLE, Setting.Type.BOOLEAN),
        inert("ignore-warnings", List.of(), "", MUTABLE, Setting.Type.STRING),
        new Setting("io-threads", List.of(), "1", FIXED, Setting.Type.INTEGER,
            "Redis's I/O threads: in a config file or flag, sets threads to this number unless threads is given too",
            1, 128),
        inert("io-threads-do-reads", List.of(), "no", FIXED, Setting.Type.BOOLEAN),
        inert("jemalloc-bg-thread", List.of(), "yes", MUTABLE, Setting.Type.BOOLEAN),
        new Setting("metrics-port", List.of(), "0", FIXED, Setting.Type.INTEGER,
            "serve GET /metrics in Prometheus's text format on this port (redis_exporter's names); 0 = off", 0, 65535),
        new Setting("metrics-bind", List.of(), "127.0.0.1", FIXED, Setting.Type.STRING,
            "the address the metrics port listens on"),
        new Setting("latency-tracking", List.of(), "yes", MUTABLE, Setting.Type.BOOLEAN,
            "record each command's latencies in a histogram (LATENCY HISTOGRAM, INFO latencystats)"),
        new Setting("latency-tracking-info-percentiles", List.of(), "50 99 99.9", MUTABLE, Setting.Type.PERCENTILES,
            "the percentiles INFO latencystats reports per command, numbers from 0 to 100; \"\" for none"),
        inert("lazyfree-lazy-eviction", List.of(), "no", MUTABLE, Setting.Type.BOOLEAN),
        inert("lazyfree-lazy-expire", List.of(), "no", MUTABLE, Setting.Type.BOOLEAN),
        inert("lazyfree-lazy-server-del", List.of(), "no", MUTABLE, Setting.Type.BOOLEAN),
        inert("lazyfree-lazy-user-del", List.of(), "no", MUTABLE, Setting.Type.BOOLEAN),
        inert("lazyfree-lazy-user-flush", List.of(), "no", MUTABLE, Setting.Type.BOOLEAN),
        new Setting("logfile", List.of(), "", FIXED, Setting.Type.STRING,
            "where the launcher appends its log lines; empty for standard output"),
        inert("masterauth", List.of(), "", MUTABLE, Setting.Type.STRING),
        inert("masteruser", List.of(), "", MUTABLE, Setting.Type.STRING),
        inert("maxmemory-clients", List.of(), "0", MUTABLE, Setting.Type.STRING),
        inert("min-replicas-max-lag", List.of("min-slaves-max-lag"), "10", MUTABLE, Setting.Type.INTEGER, 0, Integer.MAX_VALUE),
        inert("min-replicas-to-write", List.of("min-slaves-to-write"), "0", MUTABLE, Setting.Type.INTEGER, 0, Integer.MAX_VALUE),
        inert("no-appendfsync-on-rewrite", List.of(), "no", MUTABLE, Setting.Type.BOOLEAN),
        inert("oom-score-adj", List.of(), "no", MUTABLE, "no", "yes", "relative", "absolute"),
        inert("oom-score-adj-values", List.of(), "0 200 800", MUTABLE, Setting.Type.STRING),
        new Setting("pidfile", List.of(), "", FIXED, Setting.Type.STRING,
            "a file the launcher writes the server's process id to at start and removes at exit; empty for none"),
        inert("proc-title-template", List.of(), "{title} {listen-addr} {server-mode}", MUTABLE, Setting.Type.STRING),
        inert("propagation-error-behavior", List.of(), "ignore", MUTABLE, "ignore", "panic", "panic-on-replicas"),
        inert("rdb-del-sync-files", List.of(), "no", MUTABLE, Setting.Type.BOOLEAN),
        inert("rdb-save-incremental-fsync", List.of(), "yes", MUTABLE, Setting.Type.BOOLEAN),
        inert("repl-backlog-size", List.of(), "1048576", MUTABLE, Setting.Type.MEMORY, 0, Long.MAX_VALUE),
        inert("repl-backlog-ttl", List.of(), "3600", MUTABLE, Setting.Type.INTEGER, 0, Long.MAX_VALUE),
        inert("repl-disable-tcp-nodelay", List.of(), "no", MUTABLE, Setting.Type.BOOLEAN),
        inert("repl-diskless-load", List.of(), "disabled", MUTABLE, "disabled", "on-empty-db", "swapdb"),
        inert("repl-diskless-sync", List.of(), "yes", MUTABLE, Setting.Type.BOOLEAN),
        inert("repl-diskless-sync-delay", List.of(), "5", MUTABLE, Setting.Type.INTEGER, 0, Integer.MAX_VALUE),
        inert("repl-diskless-sync-max-replicas", List.of(), "0", MUTABLE, Setting.Type.INTEGER, 0, Integer.MAX_VALUE),
        inert("repl-ping-replica-period", List.of("repl-ping-slave-period"), "10", MUTABLE, Setting.Type.INTEGER, 1, Integer.MAX_VALUE),
        inert("repl-timeout", List.of(), "60", MUTABLE, Setting.Type.INTEGER, 1, Integer.MAX_VALUE),
        inert("replica-announce-ip", List.of("slave-announce-ip"), "", MUTABLE, Setting.Type.STRING),
        inert("replica-announce-port", List.of("slave-announce-port"), "0", MUTABLE, Setting.Type.INTEGER, 0, 65535),
        inert("replica-announced", List.of(), "yes", MUTABLE, Setting.Type.BOOLEAN),
        inert("replica-ignore-disk-write-errors", List.of(), "no", MUTABLE, Setting.Type.BOOLEAN),
        inert("replica-ignore-maxmemory", List.of("slave-ignore-maxmemory"), "yes", MUTABLE, Setting.Type.BOOLEAN),
        inert("replica-lazy-flush", List.of("slave-lazy-flush"), "no", MUTABLE, Setting.Type.BOOLEAN),
        inert("replica-priority", List.of("slave-priority"), "100", MUTABLE, Setting.Type.INTEGER, 0, Integer.MAX_VALUE),
        inert("replica-read-only", List.of("slave-read-only"), "yes", MUTABLE, Setting.Type.BOOLEAN),
        inert("replica-serve-stale-data", List.of("slave-serve-stale-data"), "yes", MUTABLE, Setting.Type.BOOLEAN),
        inert("replicaof", List.of("slaveof"), "", FIXED, Setting.Type.STRING),
        inert("sanitize-dump-payload", List.of(), "no", MUTABLE, "no", "yes", "clients"),
        inert("server_cpulist", List.of(), "", FIXED, Setting.Type.STRING),
        inert("set-proc-title", List.of(), "yes", FIXED, Setting.Type.BOOLEAN),
        inert("shutdown-on-sigint", List.of(), "default", MUTABLE, "default", "save", "nosave", "now", "force"),
        inert("shutdown-on-sigterm", List.of(), "default", MUTABLE, "default", "save", "nosave", "now", "force"),
        inert("shutdown-timeout", List.of(), "10", MUTABLE, Setting.Type.INTEGER, 0, Integer.MAX_VALUE),
        inert("socket-mark-id", List.of(), "0", FIXED, Setting.Type.INTEGER, 0, 4294967295L),
        inert("supervised", List.of(), "no", FIXED, "upstart", "systemd", "auto", "no"),
        new Setting("syslog-enabled", List.of(), "no", FIXED, Setting.Type.BOOLEAN,
            "also send every log line to the local syslog (/dev/log, RFC 3164); needs Netty's epoll transport, "
            + "and the start-up log says when it cannot run"),
        new Setting("syslog-facility", List.of(), "local0", FIXED, Setting.Type.ENUM, "the syslog facility",
            Long.MIN_VALUE, Long.MAX_VALUE, List.of("user", "local0", "local1", "local2", "local3", "local4", "local5",
            "local6", "local7"), true),
        new Setting("syslog-ident", List.of(), "redis", FIXED, Setting.Type.STRING,
            "the program name syslog lines carry"),
        new Setting("tcp-backlog", List.of(), "511", FIXED, Setting.Type.INTEGER,
            "the listen queue length passed to listen(); the kernel caps it at net.core.somaxconn", 0, Integer.MAX_VALUE),
        new Setting("tcp-keepalive", List.of(), "300", MUTABLE, Setting.Type.INTEGER,
            "SO_KEEPALIVE on client connections, first probe after this many idle seconds (epoll and io_uring; NIO keeps the kernel's timing); 0 turns it off; read when the server binds", 0, Integer.MAX_VALUE),
        new Setting("tls-auth-clients", List.of(), "yes", MUTABLE, Setting.Type.ENUM,
            "on tls-port: yes requires a client certificate signed by tls-ca-cert-file/-dir, optional checks one "
            + "when given, no asks for none", Long.MIN_VALUE, Long.MAX_VALUE, List.of("no", "yes", "optional"), true),
        tls("tls-ca-cert-dir", "", "a directory of CA certificates (PEM, one or more per file) that client "
            + "certificates are checked against, beside tls-ca-cert-file"),
        tls("tls-ca-cert-file", "", "a PEM file of CA certificates that client certificates are checked against"),
        tls("tls-cert-file", "", "the server's certificate chain (PEM) presented on tls-port; required with tls-port"),
        tls("tls-ciphers", "", "TLS 1.2 cipher suites, colon-separated OpenSSL or IANA names (no keywords such as "
            + "HIGH); empty for the TLS library's defaults"),
        tls("tls-ciphersuites", "", "TLS 1.3 cipher suites, colon-separated; empty for the TLS library's defaults"),
        inert("tls-client-cert-file", List.of(), "", MUTABLE, Setting.Type.STRING),
        inert("tls-client-key-file", List.of(), "", MUTABLE, Setting.Type.STRING),
        inert("tls-client-key-file-pass", List.of(), "", MUTABLE, Setting.Type.STRING),
        inert("tls-cluster", List.of(), "no", MUTABLE, Setting.Type.BOOLEAN),
        inert("tls-dh-params-file", List.of(), "", MUTABLE, Setting.Type.STRING),
        tls("tls-key-file", "", "the private key (PEM, PKCS#8 or PKCS#1) of tls-cert-file"),
        new Setting("tls-key-file-pass", List.of(), "", MUTABLE, Setting.Type.STRING,
            "the passphrase of an encrypted tls-key-file; empty for none", Long.MIN_VALUE, Long.MAX_VALUE, List.of(),
            true),
        new Setting("tls-port", List.of(), "0", MUTABLE, Setting.Type.INTEGER,
            "TLS port, beside port (on the same bind addresses); 0 for none. With tls-port set, port 0 turns plain "
            + "TCP off", 0, 65535),
        tlsFlag("tls-prefer-server-ciphers", "no", "on tls-port, choose the cipher by the server's order, not the "
            + "client's"),
        tls("tls-protocols", "", "TLS versions accepted on tls-port, space-separated (TLSv1.2, TLSv1.3; TLSv1 and "
            + "TLSv1.1 where the TLS library still has them); empty for TLSv1.2 and TLSv1.3"),
        inert("tls-replication", List.of(), "no", MUTABLE, Setting.Type.BOOLEAN),
        new Setting("tls-session-cache-size", List.of(), "20480", MUTABLE, Setting.Type.INTEGER,
            "most TLS sessions cached for resumption", 0, Integer.MAX_VALUE),
        new Setting("tls-session-cache-timeout", List.of(), "300", MUTABLE, Setting.Type.INTEGER,
            "seconds a cached TLS session may be resumed", 0, Integer.MAX_VALUE),
        tlsFlag("tls-session-caching", "yes", "cache TLS sessions so that clients can resume them without a full "
            + "handshake"),
        new Setting("unixsocket", List.of(), "", FIXED, Setting.Type.STRING,
            "a Unix domain socket to listen on as well (a file there is replaced; removed at exit); empty for none. "
            + "With unixsocket set, port 0 turns TCP off"),
        new Setting("unixsocketperm", List.of(), "0", FIXED, Setting.Type.STRING,
            "the socket file's permissions, in octal (700); 0 leaves the umask's"));

    /** The description of every setting accepted for compatibility only ({@link Setting#effective} false). */
    public static final String NO_EFFECT = "accepted for redis.conf compatibility; no effect in Lacewing yet";

    /** A TLS setting taking a string; a change rebuilds the TLS context (see TlsContext). */
    private static Setting tls(String name, String defaultValue, String description) {
        return new Setting(name, List.of(), defaultValue, MUTABLE, Setting.Type.STRING, description);
    }

    private static Setting tlsFlag(String name, String defaultValue, String description) {
        return new Setting(name, List.of(), defaultValue, MUTABLE, Setting.Type.BOOLEAN, description);
    }

    private static Setting inert(String name, List<String> aliases, String defaultValue, Setting.Mutability mutability,
                                 Setting.Type type) {
        return inert(name, aliases, defaultValue, mutability, type, Long.MIN_VALUE, Long.MAX_VALUE);
    }

    private static Setting inert(String name, List<String> aliases, String defaultValue, Setting.Mutability mutability,
                                 Setting.Type type, long min, long max) {
        return new Setting(name, aliases, defaultValue, mutability, type, NO_EFFECT, min, max, List.of(), false);
    }

    private static Setting inert(String name, List<String> aliases, String defaultValue, Setting.Mutability mutability,
                                 String... choices) {
        return new Setting(name, aliases, defaultValue, mutability, Setting.Type.ENUM, NO_EFFECT, Long.MIN_VALUE,
            Long.MAX_VALUE, List.of(choices), false);
    }

    private final List<Setting> table;
    private final Map<String, Setting> byName = new LinkedHashMap<>();
    private final Map<String, String> values = new ConcurrentHashMap<>();
    /**
     * {@link #getLong}'s parsed values by the name asked, so that a command reading a setting per
     * call (stream-node-max-bytes at each XADD, hash-max-listpack-entries at each HSET) parses it
     * once per change, not once per call. Replaced by an empty map after every write to
     * {@link #values}: a reader takes this map before it reads the value, so a value read before a
     * write lands only in a map that the write has already dropped.
     */
    private volatile Map<String, Long> parsedLongs = new ConcurrentHashMap<>();
    /** Whether threads was set at start-up: io-threads then no longer sets it. */
    private boolean threadsRead;
    /** Whether a save setting was read at start-up: the next one adds to it. */
    private boolean savePointsRead;
    /** The absolute path of the file the server started with (INFO's config_file); empty for none. */
    private volatile String configFile = "";
    private final List<BiConsumer<String, String>> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final List<Map.Entry<Predicate<String>, Runnable>> appliers = new java.util.concurrent.CopyOnWriteArrayList<>();

    public Config() {
        this(TABLE);
    }

    /**
     * The settings one plugin declares ({@link dev.lacewing.api.DeclaresSettings}).
     *
     * @param chooser the core setting that chooses the plugin ({@code storage}, {@code engine},
     *     {@code transport}): the plugin's settings follow it in the table, so CONFIG GET, CONFIG
     *     REWRITE and the docs list them beside it
     * @param plugin the plugin's name, for errors
     */
    public record Declared(String chooser, String plugin, List<SettingSpec> settings) {

        public Declared {
            settings = List.copyOf(settings);
        }
    }

    /** A configuration of core's settings and those {@code declared}, as {@link #table(List)} orders them. */
    public static Config withPlugins(List<Declared> declared) {
        return new Config(table(declared));
    }

    /**
     * Core's table with the settings plugins declared, each plugin's after its chooser, in the order
     * given. IllegalArgumentException when a declared name or alias is taken (by core or by another
     * plugin) or a default does not pass its own checks.
     */
    public static List<Setting> table(List<Declared> declared) {
        Set<String> taken = new HashSet<>();
        for (Setting setting : TABLE) {
            taken.add(setting.name());
            taken.addAll(setting.aliases());
        }
        Map<String, List<Setting>> after = new LinkedHashMap<>();
        for (Declared plugin : declared) {
            if (TABLE.stream().noneMatch(setting -> setting.name().equals(plugin.chooser()))) {
                throw new IllegalArgumentException("no setting " + plugin.chooser() + " chooses plugin " + plugin.plugin());
            }
            for (SettingSpec spec : plugin.settings()) {
                Setting setting;
                try {
                    setting = of(spec);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("plugin " + plugin.plugin() + " declares '" + spec.name()
                        + "' with the default '" + spec.defaultValue() + "': " + e.getMessage(), e);
                }
                for (String name : names(setting)) {
                    if (!taken.add(name)) {
                        throw new IllegalArgumentException("plugin " + plugin.plugin() + " declares the setting '" + name
                            + "', which the server already has");
                    }
                }
                after.computeIfAbsent(plugin.chooser(), chooser -> new ArrayList<>()).add(setting);
            }
        }
        List<Setting> table = new ArrayList<>(TABLE.size());
        for (Setting setting : TABLE) {
            table.add(setting);
            table.addAll(after.getOrDefault(setting.name(), List.of()));
        }
        return List.copyOf(table);
    }

    private static List<String> names(Setting setting) {
        List<String> names = new ArrayList<>(setting.aliases());
        names.add(0, setting.name());
        return names;
    }

    /** A declared setting as the table holds it; IllegalArgumentException when its default fails its own checks. */
    private static Setting of(SettingSpec spec) {
        Setting.Mutability mutability = switch (spec.mutability()) {
            case MUTABLE -> MUTABLE;
            case PROTECTED -> PROTECTED;
            case FIXED -> FIXED;
        };
        Setting.Type type = switch (spec.type()) {
            case STRING -> Setting.Type.STRING;
            case BOOLEAN -> Setting.Type.BOOLEAN;
            case INTEGER -> Setting.Type.INTEGER;
            case MEMORY -> Setting.Type.MEMORY;
            case ENUM -> Setting.Type.ENUM;
        };
        Setting declared = new Setting(spec.name(), spec.aliases(), spec.defaultValue(), mutability, type,
            spec.description(), spec.min(), spec.max(), spec.choices(), true);
        // Kept, as core's defaults are, in the form CONFIG GET replies.
        return new Setting(spec.name(), spec.aliases(), declared.normalize(spec.defaultValue()), mutability, type,
            spec.description(), spec.min(), spec.max(), spec.choices(), true);
    }


    /** A configuration of other settings than Lacewing's, for tests of the mechanism. */
    Config(List<Setting> table) {
        this.table = List.copyOf(table);
        for (Setting setting : table) {
            byName.put(setting.name(), setting);
            for (String alias : setting.aliases()) {
                byName.put(alias, setting);
            }
            store(setting.name(), setting.defaultValue());
        }
    }

    /**
     * Whether a config-file or command-line directive is Redis's {@code user}: not a setting but one
     * ACL user each, applied when the server starts (repeatable, never listed by CONFIG GET).
     */
    public static boolean isUserDirective(String name) {
        return name.equalsIgnoreCase("user");
    }

    /** Every setting, core's and those plugins declared, in the table's order. */
    public List<Setting> table() {
        return table;
    }

    /** The setting a name or alias denotes. */
    public Optional<Setting> setting(String name) {
        return Optional.ofNullable(byName.get(name.toLowerCase(Locale.ROOT)));
    }

    /** Sets a value at startup (config file, flags, embedding builder): fixed settings included. */
    public void initialize(String name, String value) {
        Setting setting = setting(name).orElseThrow(() -> new IllegalArgumentException("Bad directive or wrong number of arguments"));
        String normalized = setting.apply(values.get(setting.name()), value);
        if (setting.type() == Setting.Type.SAVE_POINTS) {
            // As setConfigSaveOption reading a config file: the first save replaces the default, later ones add.
            String before = savePointsRead ? values.get(setting.name()) : "";
            savePointsRead = true;
            normalized = before.isEmpty() || normalized.isEmpty() ? normalized : before + " " + normalized;
        }
        store(setting.name(), normalized);
        if (setting.name().equals("threads")) {
            threadsRead = true;
        } else if (setting.name().equals("io-threads") && !threadsRead && table.contains(THREADS)) {
            store(THREADS.name(), normalized);
        }
    }

    /**
     * Why CONFIG SET may not change a setting for a client, in Redis's words, or null when it may:
     * a FIXED setting never, a PROTECTED one only as enable-protected-configs allows the client.
     */
    public String refusal(Setting setting, boolean localClient) {
        return switch (setting.mutability()) {
            case MUTABLE -> null;
            case PROTECTED -> access("enable-protected-configs").allows(localClient) ? null
                : "can't set protected config";
            case FIXED -> "can't set immutable config";
        };
    }

    /**
     * Whether a client may run protected command {@code command} ({@link dev.lacewing.api.CommandFlag#PROTECTED}):
     * as its setting allows, never when it has none.
     */
    public boolean allowsProtectedCommand(String command, boolean localClient) {
        return setting(protectedCommandSetting(command)).map(setting -> access(setting.name()).allows(localClient))
            .orElse(false);
    }

    /** The setting that allows protected command {@code command}: enable-debug-command, enable-module-command. */
    public static String protectedCommandSetting(String command) {
        return "enable-" + command.toLowerCase(Locale.ROOT) + "-command";
    }

    private ProtectedAccess access(String name) {
        return ProtectedAccess.named(value(name));
    }

    /**
     * CONFIG SET of one setting, once {@link #refusal} allowed it; IllegalArgumentException carries
     * Redis's reason. Listeners hear of the change.
     */
    public void set(String name, String value) {
        Setting setting = setting(name).orElseThrow(() -> new IllegalArgumentException("Unknown option or number of arguments for CONFIG SET - '" + name + "'"));
        if (setting.mutability() == Setting.Mutability.FIXED) {
            throw new IllegalArgumentException("can't set immutable config");
        }
        String normalized = setting.apply(values.get(setting.name()), value);
        store(setting.name(), normalized);
        listeners.forEach(listener -> listener.accept(setting.name(), normalized));
    }

    public String configFile() {
        return configFile;
    }

    public void configFile(String absolutePath) {
        configFile = absolutePath;
    }

    /**
     * The names of settings Lacewing accepts but does not act on ({@link Setting#effective}) among
     * {@code names}, each once, under its canonical name, in the order given.
     */
    public List<String> withoutEffect(List<String> names) {
        return names.stream().map(this::setting).flatMap(Optional::stream).filter(setting -> !setting.effective())
            .map(Setting::name).distinct().toList();
    }

    /**
     * A step that puts a group of settings into effect once CONFIG SET has set every value it was
     * given (Redis's apply functions, such as applyTlsCfg): run once per CONFIG SET, however many of
     * the group's settings it changed, so that a certificate and its key can change together. It
     * throws IllegalArgumentException, with Redis's reason, to undo the CONFIG SET.
     */
    public void onApply(Predicate<String> names, Runnable apply) {
        appliers.add(Map.entry(names, apply));
    }

    /**
     * Runs the apply steps of the settings named (canonical names, in the order CONFIG SET gave
     * them), each step once; a step that fails stops the rest.
     *
     * @throws ApplyFailure naming the first setting of the failed step's group
     */
    public void apply(List<String> names) {
        for (Map.Entry<Predicate<String>, Runnable> applier : appliers) {
            Optional<String> first = names.stream().filter(applier.getKey()).findFirst();
            if (first.isEmpty()) {
                continue;
            }
            try {
                applier.getValue().run();
            } catch (IllegalArgumentException e) {
                throw new ApplyFailure(first.get(), e.getMessage());
            }
        }
    }

    /** An apply step's refusal: the setting CONFIG SET's error names, and Redis's reason. */
    public static final class ApplyFailure extends IllegalArgumentException {
        private final String setting;

        ApplyFailure(String setting, String reason) {
            super(reason);
            this.setting = setting;
        }

        public String setting() {
            return setting;
        }
    }

    /** Hears every CONFIG SET (name, normalized value). */
    public void onChange(BiConsumer<String, String> listener) {
        listeners.add(listener);
    }

    private void store(String name, String value) {
        values.put(name, value);
        parsedLongs = new ConcurrentHashMap<>();
    }

    @Override
    public Optional<String> get(String name) {
        return setting(name).map(setting -> values.get(setting.name()));
    }

    /** A setting's value as CONFIG GET replies it ({@link Setting#display}). */
    public Optional<String> displayed(String name) {
        return setting(name).map(setting -> setting.display(values.get(setting.name())));
    }

    /** A numeric setting's value, parsed once per change of any setting (the commands' hot path). */
    @Override
    public long getLong(String name, long fallback) {
        Map<String, Long> parsed = parsedLongs;
        Long value = parsed.get(name);
        if (value == null) {
            Optional<String> text = get(name);
            if (text.isEmpty()) {
                return fallback;
            }
            value = Long.parseLong(text.get());
            parsed.put(name, value);
        }
        return value;
    }

    public String value(String name) {
        return values.get(setting(name).orElseThrow().name());
    }

    public long longValue(String name) {
        return Long.parseLong(value(name));
    }

    public boolean flag(String name) {
        return value(name).equals("yes");
    }

    /**
     * Name/value pairs of the settings whose name or an alias matches, each reported once, under
     * the name matched, with values as CONFIG GET replies them ({@link Setting#display}).
     */
    public List<Map.Entry<String, String>> matching(Predicate<String> nameMatches) {
        List<Map.Entry<String, String>> found = new ArrayList<>();
        for (Setting setting : table) {
            String value = setting.display(values.get(setting.name()));
            if (nameMatches.test(setting.name())) {
                found.add(Map.entry(setting.name(), value));
            }
            for (String alias : setting.aliases()) {
                if (nameMatches.test(alias)) {
                    found.add(Map.entry(alias, value));
                }
            }
        }
        return found;
    }

    /**
     * Restores a value, to undo a failed multi-setting CONFIG SET; listeners hear it, since they
     * heard the value it undoes (a memory policy, the log level).
     */
    public void restore(String name, String value) {
        String canonical = setting(name).orElseThrow().name();
        store(canonical, value);
        listeners.forEach(listener -> listener.accept(canonical, value));
    }
}
