package dev.lacewing.core.command;

import dev.lacewing.api.CommandHandler;
import dev.lacewing.api.CommandSpec;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.LongAdder;

/**
 * A command table entry: the spec, the handler, the name as bytes for allocation-free lookup,
 * and the counters INFO commandstats reports.
 *
 * <p>Thread rule: immutable but for the counters, which any worker adds to.
 */
public final class Command {

    private final CommandSpec spec;
    private final CommandHandler handler;
    private final byte[] name;
    /** Who registered it: "core" or a plugin's name; MODULE UNLOAD removes by it. */
    private final String owner;
    private final LongAdder calls = new LongAdder();
    private final LongAdder microseconds = new LongAdder();
    private final LongAdder failedCalls = new LongAdder();
    private final LongAdder rejectedCalls = new LongAdder();

    public Command(CommandSpec spec, CommandHandler handler, String owner) {
        this.spec = spec;
        this.handler = handler;
        this.owner = owner;
        this.name = spec.name().getBytes(StandardCharsets.US_ASCII);
    }

    public CommandSpec spec() {
        return spec;
    }

    public CommandHandler handler() {
        return handler;
    }

    public String owner() {
        return owner;
    }

    byte[] nameBytes() {
        return name;
    }

    public void recordCall(long micros, boolean failed) {
        calls.increment();
        microseconds.add(micros);
        if (failed) {
            failedCalls.increment();
        }
    }

    public void recordRejected() {
        rejectedCalls.increment();
    }

    public long calls() {
        return calls.sum();
    }

    public long microseconds() {
        return microseconds.sum();
    }

    public long failedCalls() {
        return failedCalls.sum();
    }

    public long rejectedCalls() {
        return rejectedCalls.sum();
    }

    public void resetStats() {
        calls.reset();
        microseconds.reset();
        failedCalls.reset();
        rejectedCalls.reset();
    }
}
