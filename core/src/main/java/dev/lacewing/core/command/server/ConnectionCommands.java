package dev.lacewing.core.command.server;

import static dev.lacewing.api.CommandFlag.ADMIN;
import static dev.lacewing.api.CommandFlag.FAST;
import static dev.lacewing.api.CommandFlag.LOADING;
import static dev.lacewing.api.CommandFlag.NOSCRIPT;
import static dev.lacewing.api.CommandFlag.NO_AUTH;
import static dev.lacewing.api.CommandFlag.STALE;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandContext;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.KeyScope;
import dev.lacewing.api.ReplyWriter;
import dev.lacewing.core.acl.Acl;
import dev.lacewing.core.acl.AclLog;
import dev.lacewing.core.acl.AclUser;
import dev.lacewing.core.command.CommandTable;
import dev.lacewing.core.command.Errors;
import dev.lacewing.core.command.Numbers;
import dev.lacewing.core.command.Timeouts;
import dev.lacewing.core.server.ClientConnection;
import dev.lacewing.core.server.CoreContext;
import dev.lacewing.core.server.Multi;
import dev.lacewing.core.server.ServerState;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Connection commands: PING, ECHO, QUIT, RESET, HELLO, AUTH and CLIENT. Lacewing answers them
 * as Redis 7.0 does (so CLIENT SETINFO, a 7.2 addition, is an unknown subcommand, which
 * clients such as lettuce accept and go on).
 */
public final class ConnectionCommands {

    private ConnectionCommands() {
    }

    public static void register(CommandTable.Builder<CoreContext> registry) {
        registry.registerCore(spec("ping", -1, "Ping the server", FAST),
            ConnectionCommands::ping);
        registry.register(spec("echo", 2, "Echo the given string", FAST, LOADING, STALE),
            ConnectionCommands::echo);
        registry.register(spec("quit", -1, "Close the connection", NOSCRIPT, LOADING, STALE, FAST, NO_AUTH,
            CommandFlag.ALLOW_BUSY), ConnectionCommands::quit);
        registry.registerCore(spec("reset", 1, "Reset the connection", NOSCRIPT, LOADING, STALE, FAST, NO_AUTH,
            CommandFlag.ALLOW_BUSY), ConnectionCommands::reset);
        registry.registerCore(spec("hello", -1, "Handshake with Redis", NOSCRIPT, LOADING, STALE, FAST,
            NO_AUTH, CommandFlag.ALLOW_BUSY), ConnectionCommands::hello);
        registry.registerCore(spec("auth", -2, "Authenticate to the server", NOSCRIPT, LOADING, STALE, FAST,
            NO_AUTH, CommandFlag.ALLOW_BUSY), ConnectionCommands::auth);
        registry.registerCore(CLIENT.container(spec("client", -2, "A container for client connection commands")),
            ConnectionCommands::client);
    }

    private static CommandSpec spec(String name, int arity, String summary, CommandFlag... flags) {
        return new CommandSpec(name, arity, Set.of(flags), 0, 0, 0, KeyScope.NONE, "connection", summary);
    }

    /** PING [message]; a RESP2 subscriber gets {@code pong} and the message (or "") as an array. */
    private static void ping(CoreContext ctx) {
        Arguments args = ctx.arguments();
        if (args.count() > 2) {
            ctx.reply().error(Errors.wrongArity("ping"));
        } else if (ctx.reply().protocol() == 2 && ctx.connection() != null && ctx.connection().subscribed()) {
            ctx.reply().array(2);
            ctx.reply().bulk("pong");
            if (args.count() == 2) {
                ctx.reply().bulk(args.array(), args.offset(1), args.length(1));
            } else {
                ctx.reply().bulk("");
            }
        } else if (args.count() == 2) {
            ctx.reply().bulk(args.array(), args.offset(1), args.length(1));
        } else {
            ctx.reply().simple("PONG");
        }
    }

    private static void echo(CommandContext ctx) {
        Arguments args = ctx.arguments();
        ctx.reply().bulk(args.array(), args.offset(1), args.length(1));
    }

    private static void quit(CommandContext ctx) {
        ctx.reply().ok();
        ctx.client().closeAfterReply();
    }

    /** RESET: leaves every channel (without confirmations) and MONITOR mode, as a new connection, then replies RESET. */
    private static void reset(CoreContext ctx) {
        ClientConnection connection = ctx.connection();
        if (connection != null) {
            if (connection.subscribed()) {
                connection.server().pubSub().unsubscribeAll(connection);
            }
            connection.stopMonitoring();
            connection.server().tracking().disable(connection);
        }
        ctx.client().selectDatabase(0);
        ctx.client().setProtocol(2);
        ctx.client().setName("");
        if (connection != null) {
            connection.resetUser();
        }
        Multi.of(ctx).reset();
        ctx.reply().simple("RESET");
    }

    /** HELLO [protover [AUTH username password] [SETNAME clientname]] */
    private static void hello(CoreContext ctx) {
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        int protocol = ctx.client().protocol();
        int next = 1;
        if (args.count() >= 2) {
            long requested;
            try {
                requested = Long.parseLong(args.string(1));
            } catch (NumberFormatException e) {
                reply.error("ERR Protocol version is not an integer or out of range");
                return;
            }
            if (requested < 2 || requested > 3) {
                reply.error("NOPROTO unsupported protocol version");
                return;
            }
            protocol = (int) requested;
            next = 2;
        }
        String user = null;
        String password = null;
        String name = null;
        for (int i = next; i < args.count(); i++) {
            boolean more = i + 1 < args.count();
            if (args.is(i, "AUTH") && i + 2 < args.count()) {
                user = args.string(i + 1);
                password = args.string(i + 2);
                i += 2;
            } else if (args.is(i, "SETNAME") && more) {
                name = args.string(i + 1);
                i++;
            } else {
                reply.error(Errors.quoting("ERR Syntax error in HELLO option '", args.array(), args.offset(i),
                    args.length(i), Integer.MAX_VALUE, "'"));
                return;
            }
        }
        if (user != null && !checkPassword(ctx, user, password)) {
            return;
        }
        if (!ctx.client().authenticated()) {
            reply.error("NOAUTH HELLO must be called with the client already authenticated, otherwise the HELLO "
                + "<proto> AUTH <user> <pass> option can be used to authenticate the client and select the RESP "
                + "protocol version at the same time");
            return;
        }
        if (name != null) {
            if (!validName(name)) {
                reply.error("ERR Client names cannot contain spaces, newlines or special characters.");
                return;
            }
            ctx.client().setName(name);
        }
        ctx.client().setProtocol(protocol);
        reply.map(7);
        reply.bulk("server");
        reply.bulk("redis");
        reply.bulk("version");
        reply.bulk(ServerState.REDIS_VERSION);
        reply.bulk("proto");
        reply.integer(protocol);
        reply.bulk("id");
        reply.integer(ctx.client().id());
        reply.bulk("mode");
        reply.bulk("standalone");
        reply.bulk("role");
        reply.bulk("master");
        reply.bulk("modules");
        reply.array(0);
    }

    /** AUTH [username] password */
    private static void auth(CoreContext ctx) {
        Arguments args = ctx.arguments();
        if (args.count() > 3) {
            ctx.reply().error(Errors.SYNTAX);
            return;
        }
        if (args.count() == 2 && ctx.server().acl().defaultUser().rules().nopass()) {
            ctx.reply().error("ERR AUTH <password> called without any password configured for the default user. "
                + "Are you sure your configuration is correct?");
            return;
        }
        String user = args.count() == 3 ? args.string(1) : "default";
        if (checkPassword(ctx, user, args.string(args.count() - 1))) {
            ctx.reply().ok();
        }
    }

    /**
     * Authenticates the client as the user when the password opens it (Redis's ACLAuthenticateUser);
     * otherwise logs the failure in ACL LOG, replies WRONGPASS and returns false.
     */
    private static boolean checkPassword(CoreContext ctx, String user, String password) {
        Acl acl = ctx.server().acl();
        AclUser found = acl.authenticate(user, password);
        ClientConnection connection = ctx.connection();
        if (found == null) {
            if (connection != null) {
                acl.log().add(AclLog.Reason.AUTH, connection.multi().active() ? "multi" : "toplevel",
                    ctx.arguments().string(0), user, connection.describe());
            }
            ctx.reply().error(Errors.WRONGPASS);
            return false;
        }
        if (connection != null) {
            connection.authenticateAs(found);
        } else {
            ctx.client().setAuthenticated(true);
        }
        return true;
    }

    static boolean validName(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < '!' || c > '~') {
                return false;
            }
        }
        return true;
    }

    private static final Subcommands<CoreContext> CLIENT = new Subcommands<CoreContext>("client", "connection")
        .add("id", 2, "Returns the client ID for the current connection",
            ctx -> ctx.reply().integer(ctx.client().id()), NOSCRIPT, LOADING, STALE)
        .add("setname", 3, "Set the current connection name", ConnectionCommands::clientSetName,
            NOSCRIPT, LOADING, STALE)
        .add("getname", 2, "Get the current connection name", ConnectionCommands::clientGetName,
            NOSCRIPT, LOADING, STALE)
        .add("info", 2, "Returns information about the current client connection.",
            ctx -> ctx.reply().verbatim(ctx.connection().describe() + "\n"), NOSCRIPT, LOADING, STALE)
        .add("list", -2, "Get the list of client connections", ctx -> clientList(ctx, ctx.server()),
            ADMIN, NOSCRIPT, LOADING, STALE)
        .add("kill", -3, "Kill the connection of a client", ctx -> clientKill(ctx, ctx.server()),
            ADMIN, NOSCRIPT, LOADING, STALE)
        .add("unblock", -3, "Unblock a client blocked in a blocking command from a different connection",
            ctx -> clientUnblock(ctx, ctx.server()), ADMIN, NOSCRIPT, LOADING, STALE)
        .add("tracking", -3, "Enable or disable server assisted client side caching support",
            TrackingCommands::tracking, NOSCRIPT, LOADING, STALE)
        .add("caching", 3, "Instruct the server about tracking or not keys in the next request",
            TrackingCommands::caching, NOSCRIPT, LOADING, STALE)
        .add("getredir", 2, "Get tracking notifications redirection client ID if any",
            TrackingCommands::getRedirect, NOSCRIPT, LOADING, STALE)
        .add("trackinginfo", 2, "Return information about server assisted client side caching for the current "
            + "connection", TrackingCommands::trackingInfo, NOSCRIPT, LOADING, STALE)
        .add("pause", -3, "Stop processing commands from clients for some time",
            ctx -> clientPause(ctx, ctx.server()), ADMIN, NOSCRIPT, LOADING, STALE)
        .add("unpause", 2, "Resume processing of clients that were paused", ctx -> {
            ctx.server().unpause();
            ctx.reply().ok();
        }, ADMIN, NOSCRIPT, LOADING, STALE)
        .add("reply", 3, "Instruct the server whether to reply to commands", ConnectionCommands::clientReply,
            NOSCRIPT, LOADING, STALE)
        .add("no-evict", 3, "Set client eviction mode for the current connection", ConnectionCommands::clientNoEvict,
            ADMIN, NOSCRIPT, LOADING, STALE)
        .help(ctx -> help(ctx.reply(), "CLIENT",
            "CACHING (YES|NO)", "    Enable/disable tracking of the keys for next command in OPTIN/OPTOUT modes.",
            "GETREDIR", "    Return the client ID we are redirecting to when tracking is enabled.",
            "ID", "    Return the ID of the current connection.",
            "GETNAME", "    Return the name of the current connection.",
            "UNPAUSE", "    Stop the current client pause, resuming traffic.",
            "PAUSE <timeout> [WRITE|ALL]", "    Suspend all, or just write, clients for <timeout> milliseconds.",
            "REPLY (ON|OFF|SKIP)", "    Control the replies sent to the current connection.",
            "SETNAME <name>", "    Assign the name <name> to the current connection.",
            "INFO", "    Return information about the current client connection.",
            "LIST [TYPE (NORMAL|MASTER|REPLICA|PUBSUB)] [ID <id> [<id> ...]]",
            "    Return information about client connections.",
            "KILL <ip:port>", "    Kill connection made from <ip:port>.",
            "KILL <option> <value> [<option> <value> [...]]",
            "    Kill connections. Options are: ID <client-id>, ADDR <ip:port>, LADDR <ip:port>, "
                + "SKIPME (YES|NO), TYPE (NORMAL|MASTER|REPLICA|PUBSUB).",
            "UNBLOCK <clientid> [TIMEOUT|ERROR]", "    Unblock the specified blocked client.",
            "TRACKING (ON|OFF) [REDIRECT <id>] [BCAST] [PREFIX <prefix> [...]]",
            "         [OPTIN] [OPTOUT] [NOLOOP]", "    Control server assisted client side caching.",
            "TRACKINGINFO", "    Report tracking status for the current connection.",
            "NO-EVICT (ON|OFF)", "    Protect current client connection from eviction."));

    private static void client(CoreContext ctx) {
        CLIENT.dispatch(ctx);
    }

    /**
     * CLIENT PAUSE timeout [WRITE|ALL]: holds every command of every client (ALL, the default), or
     * those that write (WRITE), until the timeout in milliseconds or CLIENT UNPAUSE. Held commands
     * wait, they are not refused. Unlike Redis, expiry and eviction go on meanwhile.
     */
    private static void clientPause(CommandContext ctx, ServerState server) {
        Arguments args = ctx.arguments();
        if (args.count() > 4) {
            ctx.reply().error("ERR unknown subcommand or wrong number of arguments for '" + args.string(1)
                + "'. Try CLIENT HELP.");
            return;
        }
        boolean all = true;
        if (args.count() == 4) {
            if (args.is(3, "write")) {
                all = false;
            } else if (!args.is(3, "all")) {
                ctx.reply().error("ERR CLIENT PAUSE mode must be WRITE or ALL");
                return;
            }
        }
        long millis;
        try {
            millis = Numbers.parseLong(args.array(), args.offset(2), args.length(2));
        } catch (Numbers.InvalidNumber e) {
            ctx.reply().error("ERR timeout is not an integer or out of range");
            return;
        }
        if (millis < 0) {
            ctx.reply().error(Timeouts.NEGATIVE);
            return;
        }
        server.pause(System.currentTimeMillis() + millis, all);
        ctx.reply().ok();
    }

    /** CLIENT REPLY ON|OFF|SKIP */
    private static void clientReply(CoreContext ctx) {
        String mode = ctx.arguments().string(2).toLowerCase(Locale.ROOT);
        if (mode.equals("on") || mode.equals("off") || mode.equals("skip")) {
            ctx.connection().replyMode(mode);
        } else {
            ctx.reply().error(Errors.SYNTAX);
        }
    }

    /** CLIENT NO-EVICT ON|OFF: only the flag, as Lacewing evicts no clients. */
    private static void clientNoEvict(CoreContext ctx) {
        if (ctx.arguments().is(2, "on") || ctx.arguments().is(2, "off")) {
            ctx.connection().noEvict(ctx.arguments().is(2, "on"));
            ctx.reply().ok();
        } else {
            ctx.reply().error(Errors.SYNTAX);
        }
    }

    private static void clientSetName(CommandContext ctx) {
        String name = ctx.arguments().string(2);
        if (!validName(name)) {
            ctx.reply().error("ERR Client names cannot contain spaces, newlines or special characters.");
            return;
        }
        ctx.client().setName(name);
        ctx.reply().ok();
    }

    private static void clientGetName(CommandContext ctx) {
        String name = ctx.client().name();
        if (name.isEmpty()) {
            ctx.reply().nullBulk();
        } else {
            ctx.reply().bulk(name);
        }
    }

    /**
     * addReplySubcommandSyntaxError: the subcommand (argument 1) quoted as {@code %.128s}; what a
     * command that is not a container (DEBUG) replies for a subcommand it does not know, and what
     * a subcommand replies for arguments it cannot take. Containers otherwise answer through
     * {@link Subcommands}.
     */
    public static byte[] unknownSubcommand(Arguments args, String command) {
        return Errors.quoting("ERR unknown subcommand or wrong number of arguments for '", args.array(),
            args.offset(1), args.length(1), 128, "'. Try " + command + " HELP.");
    }

    /** Replies the help lines of a container command, in Redis's format. */
    public static void help(ReplyWriter reply, String command, String... lines) {
        reply.array(lines.length + 3);
        reply.simple(command + " <subcommand> [<arg> [value] [opt] ...]. Subcommands are:");
        for (String line : lines) {
            reply.simple(line);
        }
        reply.simple("HELP");
        reply.simple("    Prints this help.");
    }

    private static void clientList(CommandContext ctx, ServerState server) {
        Arguments args = ctx.arguments();
        List<Long> ids = null;
        String clientType = null;
        for (int i = 2; i < args.count(); i++) {
            if (args.is(i, "TYPE") && i + 1 < args.count()) {
                String type = args.string(++i);
                if (!CLIENT_TYPES.contains(type.toLowerCase(Locale.ROOT))) {
                    ctx.reply().error("ERR Unknown client type '" + type + "'");
                    return;
                }
                clientType = type.toLowerCase(Locale.ROOT);
            } else if (args.is(i, "ID") && i + 1 < args.count()) {
                ids = new ArrayList<>();
                for (i = i + 1; i < args.count(); i++) {
                    try {
                        ids.add(Long.parseLong(args.string(i)));
                    } catch (NumberFormatException e) {
                        ctx.reply().error("ERR Invalid client ID");
                        return;
                    }
                }
            } else {
                ctx.reply().error(Errors.SYNTAX);
                return;
            }
        }
        StringBuilder text = new StringBuilder();
        for (ClientConnection client : server.clients().values()) {
            if ((ids == null || ids.contains(client.id())) && (clientType == null || isOfType(client, clientType))) {
                text.append(client.describe()).append('\n');
            }
        }
        ctx.reply().verbatim(text.toString());
    }

    /**
     * CLIENT UNBLOCK id [TIMEOUT|ERROR]: 1 when the client was blocked and now is not (it gets the
     * timeout's null array, or the UNBLOCKED error), 0 otherwise.
     */
    private static void clientUnblock(CommandContext ctx, ServerState server) {
        Arguments args = ctx.arguments();
        if (args.count() > 4) {
            ctx.reply().error(unknownSubcommand(args, "CLIENT"));
            return;
        }
        long id;
        try {
            id = Numbers.parseLong(args.array(), args.offset(2), args.length(2));
        } catch (Numbers.InvalidNumber e) {
            ctx.reply().error(Errors.NOT_INTEGER);
            return;
        }
        boolean withError = false;
        if (args.count() == 4) {
            if (args.is(3, "error")) {
                withError = true;
            } else if (!args.is(3, "timeout")) {
                ctx.reply().error("ERR CLIENT UNBLOCK reason should be TIMEOUT or ERROR");
                return;
            }
        }
        ClientConnection client = server.clients().get(id);
        ctx.reply().integer(client != null && client.unblock(withError) ? 1 : 0);
    }

    /** CLIENT KILL ip:port, or CLIENT KILL with ID / ADDR / LADDR / SKIPME / TYPE filters. */
    private static void clientKill(CommandContext ctx, ServerState server) {
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        if (args.count() == 3) {
            String address = args.string(2);
            for (ClientConnection client : server.clients().values()) {
                if (client.remoteAddress().equals(address) && killOrCloseAfterReply(ctx, server, client)) {
                    reply.ok();
                    return;
                }
            }
            reply.error("ERR No such client");
            return;
        }
        if (args.count() % 2 != 0) {
            reply.error(Errors.SYNTAX);
            return;
        }
        Long id = null;
        String address = null;
        String localAddress = null;
        boolean skipMe = true;
        String clientType = null;
        for (int i = 2; i < args.count(); i += 2) {
            String value = args.string(i + 1);
            if (args.is(i, "ID")) {
                try {
                    id = Long.parseLong(value);
                } catch (NumberFormatException e) {
                    id = 0L;
                }
                if (id <= 0) {
                    reply.error("ERR client-id should be greater than 0");
                    return;
                }
            } else if (args.is(i, "ADDR")) {
                address = value;
            } else if (args.is(i, "LADDR")) {
                localAddress = value;
            } else if (args.is(i, "SKIPME")) {
                if (!value.equalsIgnoreCase("yes") && !value.equalsIgnoreCase("no")) {
                    reply.error(Errors.SYNTAX);
                    return;
                }
                skipMe = value.equalsIgnoreCase("yes");
            } else if (args.is(i, "TYPE")) {
                if (!CLIENT_TYPES.contains(value.toLowerCase(Locale.ROOT))) {
                    reply.error("ERR Unknown client type '" + value + "'");
                    return;
                }
                clientType = value.toLowerCase(Locale.ROOT);
            } else {
                reply.error(Errors.SYNTAX);
                return;
            }
        }
        int killed = 0;
        for (ClientConnection client : server.clients().values()) {
            boolean matches = (clientType == null || isOfType(client, clientType))
                && (id == null || client.id() == id)
                && (address == null || client.remoteAddress().equals(address))
                && (localAddress == null || client.localAddress().equals(localAddress))
                && !(skipMe && client.id() == ctx.client().id());
            if (matches && killOrCloseAfterReply(ctx, server, client)) {
                killed++;
            }
        }
        reply.integer(killed);
    }

    /** The type names CLIENT LIST and CLIENT KILL take (Redis's getClientTypeByName). */
    private static final List<String> CLIENT_TYPES = List.of("normal", "slave", "replica", "pubsub", "master");

    /**
     * Redis's getClientType: a client subscribed to anything (in RESP2 or RESP3) is of type pubsub,
     * any other is normal; there are no masters or replicas.
     */
    private static boolean isOfType(ClientConnection client, String type) {
        return switch (type) {
            case "normal" -> !client.subscribed();
            case "pubsub" -> client.subscribed();
            default -> false;
        };
    }

    /**
     * Kills a client, as Redis's freeClient does at once: it leaves the client registry now, so a
     * second kill or a CLIENT LIST right after does not see it while its channel closes on its own
     * thread. False when another kill got there first.
     */
    private static boolean killOrCloseAfterReply(CommandContext ctx, ServerState server, ClientConnection client) {
        if (!server.clients().remove(client.id(), client)) {
            return false;
        }
        if (client.id() == ctx.client().id()) {
            ctx.client().closeAfterReply();
        } else {
            client.killByClient();
        }
        return true;
    }
}
