package dev.lacewing.core.server;

import dev.lacewing.api.StorageEngine;
import dev.lacewing.core.command.Command;
import dev.lacewing.core.diagnostics.LatencyTracking;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Quantile;
import io.prometheus.metrics.model.snapshots.Quantiles;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * {@code metrics-port}: GET /metrics in Prometheus's text exposition format 0.0.4, written by the
 * Prometheus Java client's {@link PrometheusTextFormatWriter} (HELP and TYPE lines, label escaping),
 * with the names redis_exporter gives INFO's fields, so its dashboards chart Lacewing unchanged, and
 * the JVM's memory and collectors. Served by Netty's HTTP codec on the server's own event loops:
 * a scrape reads counters (LongAdders, the engine's approximate sizes) and allocates its text, no
 * lock is taken.
 *
 * <p>Thread rule: each scrape runs on its connection's event loop; it only reads the server's state.
 */
final class MetricsEndpoint extends SimpleChannelInboundHandler<FullHttpRequest> {

    /** The longest request line and headers read; a scrape is a few hundred bytes. */
    private static final int MAX_REQUEST_BYTES = 16 * 1024;

    private final ServerState state;

    private MetricsEndpoint(ServerState state) {
        this.state = state;
    }

    /** The pipeline of one HTTP connection to the metrics port. */
    static ChannelInitializer<Channel> initializer(ServerState state) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel channel) {
                channel.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(MAX_REQUEST_BYTES),
                    new MetricsEndpoint(state));
            }
        };
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) throws IOException {
        String path = new QueryStringDecoder(request.uri()).path();
        FullHttpResponse response;
        if (!path.equals("/metrics")) {
            response = text(ctx, HttpResponseStatus.NOT_FOUND, "Not Found\n");
        } else if (!request.method().equals(HttpMethod.GET)) {
            response = text(ctx, HttpResponseStatus.METHOD_NOT_ALLOWED, "Method Not Allowed\n");
            response.headers().set(HttpHeaderNames.ALLOW, "GET");
        } else {
            ByteBuf body = ctx.alloc().buffer();
            PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
            try (ByteBufOutputStream out = new ByteBufOutputStream(body)) {
                writer.write(out, snapshots(state), EscapingScheme.UNDERSCORE_ESCAPING);
            }
            response = new DefaultFullHttpResponse(request.protocolVersion(), HttpResponseStatus.OK, body);
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, writer.getContentType());
        }
        HttpUtil.setContentLength(response, response.content().readableBytes());
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        HttpUtil.setKeepAlive(response, keepAlive);
        if (keepAlive) {
            ctx.writeAndFlush(response);
        } else {
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }

    private static FullHttpResponse text(ChannelHandlerContext ctx, HttpResponseStatus status, String text) {
        FullHttpResponse response = new DefaultFullHttpResponse(io.netty.handler.codec.http.HttpVersion.HTTP_1_1,
            status, ctx.alloc().buffer().writeBytes(text.getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
        return response;
    }

    /** Every metric of one scrape. */
    static MetricSnapshots snapshots(ServerState state) {
        List<MetricSnapshot> metrics = new ArrayList<>();
        metrics.add(gauge("redis_up", "Information about the Redis instance", 1));
        metrics.add(gauge("redis_uptime_in_seconds", "uptime_in_seconds metric", state.uptimeSeconds()));
        metrics.add(gauge("redis_connected_clients", "connected_clients metric", state.clients().size()));
        metrics.add(gauge("redis_blocked_clients", "blocked_clients metric", state.blockedClients()));
        metrics.add(gauge("redis_memory_used_bytes", "used_memory metric", state.usedMemory()));
        metrics.add(gauge("redis_memory_max_bytes", "maxmemory metric", state.settings().longValue("maxmemory")));
        metrics.add(counter("redis_commands_processed", "total_commands_processed metric", state.commandsProcessed()));
        metrics.add(counter("redis_keyspace_hits", "keyspace_hits metric", state.keyspaceHits()));
        metrics.add(counter("redis_keyspace_misses", "keyspace_misses metric", state.keyspaceMisses()));
        StorageEngine engine = state.engine();
        metrics.add(counter("redis_expired_keys", "expired_keys metric", engine.expiredKeys()));
        metrics.add(counter("redis_evicted_keys", "evicted_keys metric", engine.evictedKeys()));
        metrics.add(counter("redis_net_input_bytes", "total_net_input_bytes metric", state.netInputBytes()));
        metrics.add(counter("redis_net_output_bytes", "total_net_output_bytes metric", state.netOutputBytes()));
        keyspace(state, metrics);
        shards(engine, metrics);
        commands(state, metrics);
        latencies(state, metrics);
        CounterSnapshot.Builder errors = CounterSnapshot.builder().name("redis_errors")
            .help("Total number of errors per error type");
        for (Map.Entry<String, Long> error : state.errorStats().counts().entrySet()) {
            errors.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(Labels.of("err", error.getKey()))
                .value(error.getValue()).build());
        }
        metrics.add(errors.build());
        jvm(metrics);
        return new MetricSnapshots(metrics);
    }

    /** redis_db_keys and redis_db_keys_expiring, per database that has keys, as redis_exporter labels them. */
    private static void keyspace(ServerState state, List<MetricSnapshot> metrics) {
        GaugeSnapshot.Builder keys = GaugeSnapshot.builder().name("redis_db_keys").help("Total number of keys by DB");
        GaugeSnapshot.Builder expiring = GaugeSnapshot.builder().name("redis_db_keys_expiring")
            .help("Total number of expiring keys by DB");
        int databases = (int) state.settings().longValue("databases");
        for (int db = 0; db < databases; db++) {
            long count = state.engine().approximateSize(db);
            if (count > 0) {
                Labels labels = Labels.of("db", "db" + db);
                keys.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels).value(count).build());
                expiring.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels)
                    .value(state.engine().approximateExpiringSize(db)).build());
            }
        }
        metrics.add(keys.build());
        metrics.add(expiring.build());
    }

    /**
     * lacewing_shard_keys and lacewing_shard_memory_bytes by shard (the engine's shards or lock
     * stripes): one size and one live-bytes read per shard and database, no lock.
     */
    private static void shards(StorageEngine engine, List<MetricSnapshot> metrics) {
        GaugeSnapshot.Builder keys = GaugeSnapshot.builder().name("lacewing_shard_keys")
            .help("Keys per shard of the engine, every database");
        GaugeSnapshot.Builder memory = GaugeSnapshot.builder().name("lacewing_shard_memory_bytes")
            .help("Live bytes of the keys per shard of the engine, as used_memory counts them");
        for (int shard = 0; shard < engine.shardCount(); shard++) {
            Labels labels = Labels.of("shard", Integer.toString(shard));
            keys.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels)
                .value(engine.approximateShardSize(shard)).build());
            long bytes = engine.shardMemory(shard);
            if (bytes >= 0) {
                memory.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels).value(bytes).build());
            }
        }
        metrics.add(keys.build());
        metrics.add(memory.build());
    }

    /**
     * redis_latency_percentiles_usec by command, as redis_exporter makes it from INFO latencystats:
     * a summary whose quantiles are latency-tracking-info-percentiles (in microseconds), with the
     * command's calls and microseconds as count and sum; empty while latency-tracking is off.
     */
    private static void latencies(ServerState state, List<MetricSnapshot> metrics) {
        SummarySnapshot.Builder summary = SummarySnapshot.builder().name("redis_latency_percentiles_usec")
            .help("A summary of latency percentile distribution per command");
        LatencyTracking tracking = state.latencyTracking();
        if (tracking.enabled()) {
            double[] percentiles = tracking.percentiles();
            for (Command<CoreContext> command : allCommands(state)) {
                Histogram histogram = command.latency().snapshot();
                if (histogram.getTotalCount() == 0) {
                    continue;
                }
                Quantile[] quantiles = new Quantile[percentiles.length];
                for (int i = 0; i < percentiles.length; i++) {
                    quantiles[i] = new Quantile(BigDecimal.valueOf(percentiles[i]).movePointLeft(2).doubleValue(),
                        histogram.getValueAtPercentile(percentiles[i]) / 1000.0);
                }
                summary.dataPoint(SummarySnapshot.SummaryDataPointSnapshot.builder()
                    .labels(Labels.of("cmd", command.spec().name())).quantiles(Quantiles.of(quantiles))
                    .count(command.calls()).sum(command.microseconds()).build());
            }
        }
        metrics.add(summary.build());
    }

    private static List<Command<CoreContext>> allCommands(ServerState state) {
        List<Command<CoreContext>> all = new ArrayList<>();
        for (Command<CoreContext> command : state.commands().commands()) {
            all.add(command);
            all.addAll(command.subcommands());
        }
        return all;
    }

    /** redis_commands_total and redis_commands_duration_seconds_total by command, those ever called. */
    private static void commands(ServerState state, List<MetricSnapshot> metrics) {
        CounterSnapshot.Builder calls = CounterSnapshot.builder().name("redis_commands")
            .help("Total number of calls per command");
        CounterSnapshot.Builder seconds = CounterSnapshot.builder().name("redis_commands_duration_seconds")
            .help("Total amount of time in seconds spent per command");
        for (Command<CoreContext> command : allCommands(state)) {
            if (command.calls() > 0) {
                Labels labels = Labels.of("cmd", command.spec().name());
                calls.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels)
                    .value(command.calls()).build());
                seconds.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels)
                    .value(command.microseconds() / 1e6).build());
            }
        }
        metrics.add(calls.build());
        metrics.add(seconds.build());
    }

    /** jvm_memory_used_bytes by area, and each collector's collections and time. */
    private static void jvm(List<MetricSnapshot> metrics) {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        metrics.add(GaugeSnapshot.builder().name("jvm_memory_used_bytes").help("Used bytes of a given JVM memory area.")
            .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(Labels.of("area", "heap"))
                .value(memory.getHeapMemoryUsage().getUsed()).build())
            .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(Labels.of("area", "nonheap"))
                .value(memory.getNonHeapMemoryUsage().getUsed()).build())
            .build());
        CounterSnapshot.Builder collections = CounterSnapshot.builder().name("jvm_gc_collections")
            .help("Collections run by each garbage collector");
        CounterSnapshot.Builder seconds = CounterSnapshot.builder().name("jvm_gc_collection_seconds")
            .help("Time spent in each garbage collector, in seconds");
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            Labels labels = Labels.of("gc", collector.getName());
            collections.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels)
                .value(Math.max(0, collector.getCollectionCount())).build());
            seconds.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels)
                .value(Math.max(0, collector.getCollectionTime()) / 1000.0).build());
        }
        metrics.add(collections.build());
        metrics.add(seconds.build());
    }

    private static GaugeSnapshot gauge(String name, String help, double value) {
        return GaugeSnapshot.builder().name(name).help(help)
            .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(value).build()).build();
    }

    private static CounterSnapshot counter(String name, String help, double value) {
        return CounterSnapshot.builder().name(name).help(help)
            .dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().value(value).build()).build();
    }
}
