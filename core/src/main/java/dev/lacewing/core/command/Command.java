package dev.lacewing.core.command;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandContext;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandHandler;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.WrongTypeException;
import dev.lacewing.core.diagnostics.LatencyHistogram;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * A command table entry: the spec, the handler, the name as bytes for allocation-free lookup,
 * the counters INFO commandstats reports and, for a container (CLIENT, CONFIG...), an entry per
 * subcommand, whose counters Redis 7 reports as {@code cmdstat_client|info}. A subcommand's handler
 * is its container's, which dispatches on the subcommand's name.
 *
 * <p>{@code C} is the context type of the server that runs the table (core's {@code CoreContext}):
 * a plugin's handler takes the api's context, a handler of core's own families may take {@code C}
 * ({@link ContextHandler}), and dispatch gives either the context it has, without a cast. The
 * parameter keeps this package free of the server's classes.
 *
 * <p>Thread rule: immutable but for the counters, which any worker adds to.
 *
 * @param <C> the context type of the server that runs the command
 */
public final class Command<C extends CommandContext> {

    /**
     * ACL ids by full name, as Redis's ACLGetCommandID: a name keeps its id when a plugin's command
     * is unloaded and loaded again, so a user's command bits stay meaningful.
     */
    private static final Map<String, Integer> ACL_IDS = new ConcurrentHashMap<>();
    private static final AtomicInteger NEXT_ACL_ID = new AtomicInteger();

    private final CommandSpec spec;
    /** Exactly one of the two is set: a plugin's (or a context-free family's) handler, or a body taking C. */
    private final CommandHandler handler;
    private final ContextHandler<? super C> body;
    private final byte[] name;
    /** Who registered it: "core" or a plugin's name; MODULE UNLOAD removes by it. */
    private final String owner;
    private final KeySplit keySplit;
    private final LongAdder calls = new LongAdder();
    private final LongAdder microseconds = new LongAdder();
    private final LongAdder failedCalls = new LongAdder();
    private final LongAdder rejectedCalls = new LongAdder();
    private final LatencyHistogram latency = new LatencyHistogram();
    /** By the subcommand's own name ({@code info} of {@code client|info}); empty when not a container. */
    private final Map<String, Command<C>> subcommands;
    /** Whether the command or one of its subcommands is {@link CommandFlag#PROTECTED}. */
    private final boolean guarded;
    /** Whether it is {@link CommandFlag#READONLY}: asked once per command run, so kept as a field. */
    private final boolean readOnly;
    private final boolean container;
    private final int aclId;
    /** The container of a subcommand, null for a command. */
    private final Command<C> parent;

    public Command(CommandSpec spec, CommandHandler handler, String owner) {
        this(spec, handler, null, owner, null);
    }

    /** A command of core's own whose body takes the server's context type. */
    public Command(CommandSpec spec, ContextHandler<? super C> body, String owner) {
        this(spec, null, body, owner, null);
    }

    private Command(CommandSpec spec, CommandHandler handler, ContextHandler<? super C> body, String owner,
                    Command<C> parent) {
        this.spec = spec;
        this.parent = parent;
        this.aclId = ACL_IDS.computeIfAbsent(spec.name(), name -> NEXT_ACL_ID.getAndIncrement());
        this.handler = handler;
        this.body = body;
        this.owner = owner;
        this.name = spec.name().getBytes(StandardCharsets.US_ASCII);
        this.keySplit = KeySplit.of(spec);
        Map<String, Command<C>> byName = new LinkedHashMap<>();
        for (CommandSpec subcommand : spec.details().subcommands()) {
            String fullName = subcommand.name();
            byName.put(fullName.substring(fullName.indexOf('|') + 1),
                new Command<>(subcommand, handler, body, owner, this));
        }
        this.subcommands = Collections.unmodifiableMap(byName);
        this.guarded = spec.has(CommandFlag.PROTECTED)
            || byName.values().stream().anyMatch(subcommand -> subcommand.spec.has(CommandFlag.PROTECTED));
        this.readOnly = spec.has(CommandFlag.READONLY);
        this.container = !byName.isEmpty();
    }

    /** Its index in an ACL selector's command bits; the same for the same full name for the life of the JVM. */
    public int aclId() {
        return aclId;
    }

    /** The container of a subcommand, null for a command. */
    public Command<C> parent() {
        return parent;
    }

    /** Whether its key lookups are reads (Redis's lookupKeyRead): they count as keyspace hits and misses. */
    public boolean readOnly() {
        return readOnly;
    }

    /**
     * The entry whose {@link CommandFlag#PROTECTED} flag governs a request that passed this
     * command's arity check, or null: this command, or the subcommand argument 1 names when it is
     * protected and accepts the argument count. An unknown subcommand or a wrong count is left to
     * the container's errors, which Redis gives before the protected one.
     */
    public Command<C> protectedEntry(Arguments args) {
        if (!guarded) {
            return null;
        }
        if (spec.has(CommandFlag.PROTECTED)) {
            return this;
        }
        Command<C> subcommand = args.count() < 2 ? null : subcommands.get(args.string(1).toLowerCase(Locale.ROOT));
        return subcommand != null && subcommand.spec.has(CommandFlag.PROTECTED)
            && subcommand.spec.acceptsArgumentCount(args.count()) ? subcommand : null;
    }

    /** Whether it has subcommands (CLIENT, CONFIG...): asked once per command run, so kept as a field. */
    public boolean container() {
        return container;
    }

    /** The subcommand by its own name in lower case, or null. */
    public Command<C> subcommand(String lowerCaseName) {
        return subcommands.get(lowerCaseName);
    }

    public Collection<Command<C>> subcommands() {
        return subcommands.values();
    }

    public CommandSpec spec() {
        return spec;
    }

    /**
     * Runs the command's body with {@code context}, on the thread that holds what its spec declares.
     * A body that met a key of another type ({@code Keyspace.aggregate}) ends here with WRONGTYPE.
     */
    public void execute(C context) {
        try {
            if (body != null) {
                body.execute(context);
            } else {
                handler.execute(context);
            }
        } catch (WrongTypeException e) {
            context.reply().error(WrongTypeException.MESSAGE);
        }
    }

    /** How the command's parts over groups of its keys join, from its tips; NONE when it runs whole. */
    public KeySplit keySplit() {
        return keySplit;
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

    /** Its latency distribution (latency-tracking), which the callers of {@link #recordCall} fill. */
    public LatencyHistogram latency() {
        return latency;
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
        latency.reset();
        failedCalls.reset();
        rejectedCalls.reset();
    }
}
