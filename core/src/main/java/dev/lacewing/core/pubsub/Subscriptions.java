package dev.lacewing.core.pubsub;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What one connection is subscribed to: its channels, patterns and shard channels, in the order
 * it subscribed. Changed only through {@link PubSub}, which keeps the registry in step.
 *
 * <p>Thread rule: the sets are the connection's home thread's. The counts are volatile so that
 * CLIENT LIST on another thread, and an engine thread checking the subscribed context before it
 * runs a pipelined command, read them safely.
 */
public final class Subscriptions {

    private static final Set<String> ALLOWED_WHILE_SUBSCRIBED = Set.of("ping", "subscribe", "ssubscribe",
        "unsubscribe", "sunsubscribe", "psubscribe", "punsubscribe", "quit", "reset");

    @SuppressWarnings("unchecked")
    private final Set<ChannelName>[] names = new Set[] {
        new LinkedHashSet<>(), new LinkedHashSet<>(), new LinkedHashSet<>()};
    private volatile int channels;
    private volatile int patterns;
    private volatile int shardChannels;

    /**
     * Redis's CLIENT_PUBSUB flag: subscribed to anything. A RESP2 connection in this state may run
     * only the commands {@link #allowedWhileSubscribed} names, and its output counts against the
     * pubsub class of client-output-buffer-limit.
     */
    public boolean active() {
        return channels + patterns + shardChannels > 0;
    }

    /** Redis's check in processCommand: what a RESP2 client may run while subscribed. */
    public static boolean allowedWhileSubscribed(String commandName) {
        return ALLOWED_WHILE_SUBSCRIBED.contains(commandName);
    }

    /** Redis's error for any other command, naming it by its full name ({@code client|info}). */
    public static String notAllowedWhileSubscribed(String fullName) {
        return "ERR Can't execute '" + fullName
            + "': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context";
    }

    public int count(SubscriptionKind kind) {
        return switch (kind) {
            case CHANNEL -> channels;
            case PATTERN -> patterns;
            case SHARD -> shardChannels;
        };
    }

    /**
     * The count a (un)subscribe confirmation carries: channels and patterns together for those two
     * kinds, shard channels alone for shard channels, as Redis 7.0 counts them.
     */
    public int confirmationCount(SubscriptionKind kind) {
        return kind == SubscriptionKind.SHARD ? shardChannels : channels + patterns;
    }

    public boolean contains(SubscriptionKind kind, ChannelName name) {
        return names[kind.ordinal()].contains(name);
    }

    /** A copy of the names of one kind, in the order they were subscribed. */
    public List<ChannelName> names(SubscriptionKind kind) {
        return new ArrayList<>(names[kind.ordinal()]);
    }

    boolean add(SubscriptionKind kind, ChannelName name) {
        boolean added = names[kind.ordinal()].add(name);
        recount(kind);
        return added;
    }

    boolean remove(SubscriptionKind kind, ChannelName name) {
        boolean removed = names[kind.ordinal()].remove(name);
        recount(kind);
        return removed;
    }

    private void recount(SubscriptionKind kind) {
        int size = names[kind.ordinal()].size();
        switch (kind) {
            case CHANNEL -> channels = size;
            case PATTERN -> patterns = size;
            case SHARD -> shardChannels = size;
        }
    }
}
