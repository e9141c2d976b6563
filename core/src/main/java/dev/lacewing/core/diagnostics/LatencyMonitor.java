package dev.lacewing.core.diagnostics;

import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Redis's latency monitor (latency.c): for each event ("command", "fast-command"), the latencies
 * in milliseconds that reached {@code latency-monitor-threshold}, one sample per second (the
 * highest of that second), the last 160 of them, and the highest ever.
 *
 * <p>Thread rule: any thread. The threshold is one volatile field, so a command that is not slow
 * costs one comparison; samples, rare by nature, are added and read under the monitor's lock.
 */
public final class LatencyMonitor {

    /** Redis's LATENCY_TS_LEN. */
    private static final int HISTORY = 160;

    /** One second's highest latency. */
    public record Sample(long unixSeconds, long millis) {
    }

    /** The latest sample of an event, and its highest ever. */
    public record Latest(String event, Sample sample, long maxMillis) {
    }

    private static final class Series {
        final Sample[] samples = new Sample[HISTORY];
        int next;
        long max;
    }

    private final Map<String, Series> events = new LinkedHashMap<>();
    /** The least latency recorded, Long.MAX_VALUE while the monitor is off (threshold 0). */
    private volatile long thresholdMillis;

    public LatencyMonitor(long thresholdMillis) {
        threshold(thresholdMillis);
    }

    /** {@code latency-monitor-threshold}: 0 turns the monitor off. */
    public void threshold(long millis) {
        thresholdMillis = millis <= 0 ? Long.MAX_VALUE : millis;
    }

    /** {@code latency-monitor-threshold}; 0 while the monitor is off. */
    public long thresholdMillis() {
        long threshold = thresholdMillis;
        return threshold == Long.MAX_VALUE ? 0 : threshold;
    }

    /** Whether a latency is recorded: the one comparison every command pays. */
    public boolean exceeds(long millis) {
        return millis >= thresholdMillis;
    }

    /**
     * call()'s sample of a command that ran for {@code micros}: under "fast-command" for a FAST
     * command, else "command", when it reached the threshold; one comparison when it did not.
     */
    public void commandRan(CommandSpec spec, long micros) {
        long millis = micros / 1000;
        if (exceeds(millis)) {
            add(spec.has(CommandFlag.FAST) ? "fast-command" : "command", millis);
        }
    }

    /** latencyAddSample: within the same second as the latest sample, the higher of the two is kept. */
    public synchronized void add(String event, long millis) {
        long now = System.currentTimeMillis() / 1000;
        Series series = events.computeIfAbsent(event, e -> new Series());
        series.max = Math.max(series.max, millis);
        int previous = (series.next + HISTORY - 1) % HISTORY;
        Sample latest = series.samples[previous];
        if (latest != null && latest.unixSeconds() == now) {
            if (millis > latest.millis()) {
                series.samples[previous] = new Sample(now, millis);
            }
            return;
        }
        series.samples[series.next] = new Sample(now, millis);
        series.next = (series.next + 1) % HISTORY;
    }

    /** LATENCY LATEST: each event's latest sample and highest ever. */
    public synchronized List<Latest> latest() {
        List<Latest> latest = new ArrayList<>();
        events.forEach((event, series) -> latest.add(new Latest(event,
            series.samples[(series.next + HISTORY - 1) % HISTORY], series.max)));
        return latest;
    }

    /** LATENCY HISTORY: an event's samples, oldest first; empty for an event never sampled. */
    public synchronized List<Sample> history(String event) {
        Series series = events.get(event);
        List<Sample> samples = new ArrayList<>();
        if (series != null) {
            for (int i = 0; i < HISTORY; i++) {
                Sample sample = series.samples[(series.next + i) % HISTORY];
                if (sample != null) {
                    samples.add(sample);
                }
            }
        }
        return samples;
    }

    /** LATENCY RESET: forgets the named events (all of them when none is named); how many it forgot. */
    public synchronized int reset(List<String> named) {
        if (named.isEmpty()) {
            int count = events.size();
            events.clear();
            return count;
        }
        int count = 0;
        for (String event : named) {
            if (events.remove(event) != null) {
                count++;
            }
        }
        return count;
    }
}
