package dev.lacewing.core.command.pubsub;

import static dev.lacewing.api.CommandFlag.FAST;
import static dev.lacewing.api.CommandFlag.LOADING;
import static dev.lacewing.api.CommandFlag.NOSCRIPT;
import static dev.lacewing.api.CommandFlag.PUBSUB;
import static dev.lacewing.api.CommandFlag.STALE;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.KeyScope;
import dev.lacewing.api.ReplyWriter;
import dev.lacewing.core.command.CommandTable;
import dev.lacewing.core.command.server.ConnectionCommands;
import dev.lacewing.core.command.server.Subcommands;
import dev.lacewing.core.pubsub.ChannelName;
import dev.lacewing.core.pubsub.PubSub;
import dev.lacewing.core.pubsub.SubscriptionKind;
import dev.lacewing.core.pubsub.Subscriptions;
import dev.lacewing.core.server.ClientConnection;
import dev.lacewing.core.server.CoreContext;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Pub/sub: SUBSCRIBE, UNSUBSCRIBE, PSUBSCRIBE, PUNSUBSCRIBE, PUBLISH, their shard forms
 * (SSUBSCRIBE, SUNSUBSCRIBE, SPUBLISH) and PUBSUB, as Redis 7.0 answers them. Every one runs on
 * the connection's home thread (no keys to route: a shard channel's key position is Redis's
 * not_key spec, for cluster routing only); delivery across threads is {@link PubSub}'s.
 *
 * <p>Confirmations are pushes: arrays in RESP2, {@code >} in RESP3, one per channel named.
 */
public final class PubSubCommands {

    private PubSubCommands() {
    }

    public static void register(CommandTable.Builder<CoreContext> registry) {
        registry.registerCore(spec("subscribe", -2, 0, 0, "Listen for messages published to the given channels",
            NOSCRIPT), ctx -> subscribe(ctx, SubscriptionKind.CHANNEL));
        registry.registerCore(spec("unsubscribe", -1, 0, 0, "Stop listening for messages posted to the given channels",
            NOSCRIPT), ctx -> unsubscribe(ctx, SubscriptionKind.CHANNEL));
        registry.registerCore(spec("psubscribe", -2, 0, 0, "Listen for messages published to channels matching the "
            + "given patterns", NOSCRIPT), ctx -> subscribe(ctx, SubscriptionKind.PATTERN));
        registry.registerCore(spec("punsubscribe", -1, 0, 0, "Stop listening for messages posted to channels matching "
            + "the given patterns", NOSCRIPT), ctx -> unsubscribe(ctx, SubscriptionKind.PATTERN));
        registry.registerCore(spec("publish", 3, 0, 0, "Post a message to a channel", FAST),
            ctx -> publish(ctx, SubscriptionKind.CHANNEL));
        registry.registerCore(spec("ssubscribe", -2, 1, -1, "Listen for messages published to the given shard channels",
            NOSCRIPT), ctx -> subscribe(ctx, SubscriptionKind.SHARD));
        registry.registerCore(spec("sunsubscribe", -1, 1, -1, "Stop listening for messages posted to the given shard "
            + "channels", NOSCRIPT), ctx -> unsubscribe(ctx, SubscriptionKind.SHARD));
        registry.registerCore(spec("spublish", 3, 1, 1, "Post a message to a shard channel", FAST),
            ctx -> publish(ctx, SubscriptionKind.SHARD));
        registry.registerCore(PUBSUB_SUBCOMMANDS.container(new CommandSpec("pubsub", -2, Set.of(), 0, 0, 0, KeyScope.NONE,
            "pubsub", "A container for Pub/Sub commands")), PUBSUB_SUBCOMMANDS::dispatch);
    }

    /** Keyless for the engine, whatever COMMAND reports as key positions: it runs on the home thread. */
    private static CommandSpec spec(String name, int arity, int firstKey, int lastKey, String summary,
                                    CommandFlag... flags) {
        Set<CommandFlag> all = new HashSet<>(Set.of(PUBSUB, LOADING, STALE));
        all.addAll(Arrays.asList(flags));
        return new CommandSpec(name, arity, all, firstKey, lastKey, firstKey == 0 ? 0 : 1, KeyScope.NONE, "pubsub",
            summary);
    }

    private static final Subcommands<CoreContext> PUBSUB_SUBCOMMANDS = new Subcommands<CoreContext>("pubsub", "pubsub")
        .add("channels", -2, "List active channels", ctx -> active(ctx, SubscriptionKind.CHANNEL), PUBSUB, LOADING,
            STALE)
        .add("numpat", 2, "Get the count of unique patterns pattern subscriptions", PubSubCommands::numpat, PUBSUB,
            LOADING, STALE)
        .add("numsub", -2, "Get the count of subscribers for channels",
            ctx -> subscriberCounts(ctx, SubscriptionKind.CHANNEL), PUBSUB, LOADING, STALE)
        .add("shardchannels", -2, "List active shard channels", ctx -> active(ctx, SubscriptionKind.SHARD), PUBSUB,
            LOADING, STALE)
        .add("shardnumsub", -2, "Get the count of subscribers for shard channels",
            ctx -> subscriberCounts(ctx, SubscriptionKind.SHARD), PUBSUB, LOADING, STALE)
        .help(ctx -> ConnectionCommands.help(ctx.reply(), "PUBSUB",
            "CHANNELS [<pattern>]",
            "    Return the currently active channels matching a <pattern> (default: '*').",
            "NUMPAT",
            "    Return number of subscriptions to patterns.",
            "NUMSUB [<channel> ...]",
            "    Return the number of subscribers for the specified channels, excluding",
            "    pattern subscriptions(default: no channels).",
            "SHARDCHANNELS [<pattern>]",
            "    Return the currently active shard level channels matching a <pattern> (default: '*').",
            "SHARDNUMSUB [<shardchannel> ...]",
            "    Return the number of subscribers for the specified shard level channel(s)"));

    private static PubSub registry(CoreContext ctx) {
        return ctx.server().pubSub();
    }

    private static ChannelName name(Arguments args, int index) {
        return ChannelName.copyOf(args.array(), args.offset(index), args.length(index));
    }

    /** SUBSCRIBE / PSUBSCRIBE / SSUBSCRIBE name...: a confirmation per name, with the count after it. */
    private static void subscribe(CoreContext ctx, SubscriptionKind kind) {
        ClientConnection connection = ctx.connection();
        Arguments args = ctx.arguments();
        PubSub registry = registry(ctx);
        for (int i = 1; i < args.count(); i++) {
            ChannelName name = name(args, i);
            registry.subscribe(connection, kind, name);
            confirm(ctx.reply(), kind.subscribeReply(), name, connection.subscriptions().confirmationCount(kind));
        }
    }

    /**
     * UNSUBSCRIBE / PUNSUBSCRIBE / SUNSUBSCRIBE [name...]: with no names, leaves every one of that
     * kind; with none to leave, one confirmation with a null name.
     */
    private static void unsubscribe(CoreContext ctx, SubscriptionKind kind) {
        ClientConnection connection = ctx.connection();
        Arguments args = ctx.arguments();
        PubSub registry = registry(ctx);
        Subscriptions subscriptions = connection.subscriptions();
        List<ChannelName> names;
        if (args.count() > 1) {
            names = new ArrayList<>(args.count() - 1);
            for (int i = 1; i < args.count(); i++) {
                names.add(name(args, i));
            }
        } else {
            names = subscriptions.names(kind);
            if (names.isEmpty()) {
                ctx.reply().push(3);
                ctx.reply().bulk(kind.unsubscribeReply());
                ctx.reply().nullBulk();
                ctx.reply().integer(subscriptions.confirmationCount(kind));
                return;
            }
        }
        for (ChannelName name : names) {
            registry.unsubscribe(connection, kind, name);
            confirm(ctx.reply(), kind.unsubscribeReply(), name, subscriptions.confirmationCount(kind));
        }
    }

    private static void confirm(ReplyWriter reply, String type, ChannelName name, int count) {
        reply.push(3);
        reply.bulk(type);
        reply.bulk(name.bytes());
        reply.integer(count);
    }

    /** PUBLISH / SPUBLISH channel message: the number of deliveries. */
    private static void publish(CoreContext ctx, SubscriptionKind kind) {
        Arguments args = ctx.arguments();
        ctx.reply().integer(registry(ctx).publish(kind, name(args, 1), args.array(), args.offset(2), args.length(2)));
    }

    /** PUBSUB CHANNELS / SHARDCHANNELS [pattern] */
    private static void active(CoreContext ctx, SubscriptionKind kind) {
        Arguments args = ctx.arguments();
        if (args.count() > 3) {
            ctx.reply().error(ConnectionCommands.unknownSubcommand(args, "PUBSUB"));
            return;
        }
        byte[] pattern = args.count() == 3 ? name(args, 2).bytes() : null;
        List<ChannelName> names = registry(ctx).active(kind, pattern);
        ctx.reply().array(names.size());
        for (ChannelName name : names) {
            ctx.reply().bulk(name.bytes());
        }
    }

    /** PUBSUB NUMSUB / SHARDNUMSUB [name...]: name and count pairs, an array in RESP3 too, as Redis 7.0. */
    private static void subscriberCounts(CoreContext ctx, SubscriptionKind kind) {
        Arguments args = ctx.arguments();
        PubSub registry = registry(ctx);
        ctx.reply().array((args.count() - 2) * 2);
        for (int i = 2; i < args.count(); i++) {
            ctx.reply().bulk(args.array(), args.offset(i), args.length(i));
            ctx.reply().integer(registry.subscribers(kind, name(args, i)));
        }
    }

    private static void numpat(CoreContext ctx) {
        ctx.reply().integer(registry(ctx).patterns());
    }
}
