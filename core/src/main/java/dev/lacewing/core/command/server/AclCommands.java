package dev.lacewing.core.command.server;

import static dev.lacewing.api.CommandFlag.ADMIN;
import static dev.lacewing.api.CommandFlag.LOADING;
import static dev.lacewing.api.CommandFlag.NOSCRIPT;
import static dev.lacewing.api.CommandFlag.STALE;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.KeyScope;
import dev.lacewing.api.ReplyWriter;
import dev.lacewing.core.acl.Acl;
import dev.lacewing.core.acl.AclLog;
import dev.lacewing.core.acl.AclUser;
import dev.lacewing.core.command.Command;
import dev.lacewing.core.command.CommandTable;
import dev.lacewing.core.command.Errors;
import dev.lacewing.core.command.Numbers;
import dev.lacewing.core.server.ClientConnection;
import dev.lacewing.core.server.CoreContext;
import dev.lacewing.core.server.ServerState;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * ACL and its subcommands, as Redis 7.0's aclCommand (src/acl.c); the model is in {@code core/acl}.
 *
 * <p>Thread rule: stateless; handlers run on the client's thread.
 */
public final class AclCommands {

    /** ACL GENPASS's bits without an argument, and its bound. */
    private static final long GENPASS_BITS = 256;
    private static final long GENPASS_MAX_BITS = 4096;
    private static final SecureRandom RANDOM = new SecureRandom();

    private static final Subcommands<CoreContext> ACL = new Subcommands<CoreContext>("acl", "server")
        .add("cat", -2, "List the ACL categories or the commands inside a category", AclCommands::cat,
            NOSCRIPT, LOADING, STALE)
        .add("deluser", -3, "Remove the specified ACL users and the associated rules", AclCommands::deleteUser,
            ADMIN, NOSCRIPT, LOADING, STALE)
        .add("dryrun", -4, "Returns whether the user can execute the given command without executing the command.",
            AclCommands::dryRun, ADMIN, NOSCRIPT, LOADING, STALE)
        .add("genpass", -2, "Generate a pseudorandom secure password to use for ACL users", AclCommands::generatePassword,
            NOSCRIPT, LOADING, STALE)
        .add("getuser", 3, "Get the rules for a specific ACL user", AclCommands::getUser, ADMIN, NOSCRIPT, LOADING, STALE)
        .add("list", 2, "List the current ACL rules in ACL config file format", AclCommands::list,
            ADMIN, NOSCRIPT, LOADING, STALE)
        .add("load", 2, "Reload the ACLs from the configured ACL file", AclCommands::load, ADMIN, NOSCRIPT, LOADING, STALE)
        .add("log", -2, "List latest events denied because of ACLs in place", AclCommands::log,
            ADMIN, NOSCRIPT, LOADING, STALE)
        .add("save", 2, "Save the current ACL rules in the configured ACL file", AclCommands::save,
            ADMIN, NOSCRIPT, LOADING, STALE)
        .add("setuser", -3, "Modify or create the rules for a specific ACL user", AclCommands::setUser,
            ADMIN, NOSCRIPT, LOADING, STALE)
        .add("users", 2, "List the username of all the configured ACL rules", AclCommands::users,
            ADMIN, NOSCRIPT, LOADING, STALE)
        .add("whoami", 2, "Return the name of the user associated to the current connection", AclCommands::whoAmI,
            NOSCRIPT, LOADING, STALE)
        .help(ctx -> ConnectionCommands.help(ctx.reply(), "ACL",
            "CAT [<category>]",
            "    List all commands that belong to <category>, or all command categories",
            "    when no category is specified.",
            "DELUSER <username> [<username> ...]",
            "    Delete a list of users.",
            "DRYRUN <username> <command> [<arg> ...]",
            "    Returns whether the user can execute the given command without executing the command.",
            "GETUSER <username>",
            "    Get the user's details.",
            "GENPASS [<bits>]",
            "    Generate a secure 256-bit user password. The optional `bits` argument can",
            "    be used to specify a different size.",
            "LIST",
            "    Show users details in config file format.",
            "LOAD",
            "    Reload users from the ACL file.",
            "LOG [<count> | RESET]",
            "    Show the ACL log entries.",
            "SAVE",
            "    Save the current config to the ACL file.",
            "SETUSER <username> <attribute> [<attribute> ...]",
            "    Create or modify a user with the specified attributes.",
            "USERS",
            "    List all the registered usernames.",
            "WHOAMI",
            "    Return the current connection username."));

    private AclCommands() {
    }

    public static void register(CommandTable.Builder<CoreContext> registry) {
        registry.registerCore(ACL.container(new CommandSpec("acl", -2, Set.of(), 0, 0, 0, KeyScope.NONE, "server",
            "A container for Access List Control commands")), ACL::dispatch);
    }

    private static Acl acl(CoreContext ctx) {
        return ctx.server().acl();
    }

    /** ACL SETUSER username [rule ...] */
    private static void setUser(CoreContext ctx) {
        Arguments args = ctx.arguments();
        List<String> ops = new ArrayList<>();
        for (int i = 3; i < args.count(); i++) {
            ops.add(args.string(i));
        }
        ServerState server = ctx.server();
        String error = server.acl().setUser(args.string(2), ops, user -> {
            for (ClientConnection client : server.clients().values()) {
                if (client.user() == user) {
                    client.closeIfSubscriptionsRefused();
                }
            }
        });
        if (error != null) {
            ctx.reply().error(error);
        } else {
            ctx.reply().ok();
        }
    }

    /** ACL DELUSER username [username ...]: the count removed; their clients are closed. */
    private static void deleteUser(CoreContext ctx) {
        Arguments args = ctx.arguments();
        List<String> names = new ArrayList<>();
        for (int i = 2; i < args.count(); i++) {
            if (args.string(i).equals("default")) {
                ctx.reply().error("ERR The 'default' user cannot be removed");
                return;
            }
            names.add(args.string(i));
        }
        List<AclUser> gone = acl(ctx).deleteUsers(names);
        ctx.server().disconnect(gone, ctx.connection());
        ctx.reply().integer(gone.size());
    }

    /** ACL GETUSER username: flags, passwords, the root selector's rules, then the other selectors. */
    private static void getUser(CoreContext ctx) {
        Acl acl = acl(ctx);
        AclUser user = acl.user(ctx.arguments().string(2));
        ReplyWriter reply = ctx.reply();
        if (user == null) {
            reply.nullBulk();
            return;
        }
        AclUser.Rules rules = user.rules();
        reply.map(6);
        reply.bulk("flags");
        List<String> flags = Acl.flags(rules);
        reply.set(flags.size());
        flags.forEach(reply::bulk);
        reply.bulk("passwords");
        reply.array(rules.passwords().size());
        rules.passwords().forEach(reply::bulk);
        selector(reply, acl.describeSelector(rules, 0));
        reply.bulk("selectors");
        reply.array(rules.selectors().size() - 1);
        for (int i = 1; i < rules.selectors().size(); i++) {
            reply.map(3);
            selector(reply, acl.describeSelector(rules, i));
        }
    }

    private static void selector(ReplyWriter reply, List<String> described) {
        reply.bulk("commands");
        reply.bulk(described.get(0));
        reply.bulk("keys");
        reply.bulk(described.get(1));
        reply.bulk("channels");
        reply.bulk(described.get(2));
    }

    /** ACL LIST: each user as a line of the ACL file. */
    private static void list(CoreContext ctx) {
        Acl acl = acl(ctx);
        List<AclUser> users = acl.users();
        ctx.reply().array(users.size());
        for (AclUser user : users) {
            ctx.reply().bulk("user " + user.name() + " " + acl.describe(user));
        }
    }

    private static void users(CoreContext ctx) {
        List<AclUser> users = acl(ctx).users();
        ctx.reply().array(users.size());
        users.forEach(user -> ctx.reply().bulk(user.name()));
    }

    private static void whoAmI(CoreContext ctx) {
        ClientConnection connection = ctx.connection();
        ctx.reply().bulk(connection != null ? connection.user().name() : "default");
    }

    private static final String NO_ACL_FILE = "ERR This Redis instance is not configured to use an ACL file. You may "
        + "want to specify users via the ACL SETUSER command and then issue a CONFIG REWRITE (assuming you have a "
        + "Redis configuration file set) in order to store users in the Redis configuration.";

    /** ACL LOAD: every user from the ACL file, or none changed; replaced users' clients are closed. */
    private static void load(CoreContext ctx) {
        Acl acl = acl(ctx);
        if (!acl.hasFile()) {
            ctx.reply().error(NO_ACL_FILE);
            return;
        }
        List<AclUser> gone = new ArrayList<>();
        String errors = acl.load(gone);
        if (errors != null) {
            ctx.reply().error("ERR " + errors);
            return;
        }
        ctx.server().disconnect(gone, ctx.connection());
        ctx.reply().ok();
    }

    private static void save(CoreContext ctx) {
        Acl acl = acl(ctx);
        if (!acl.hasFile()) {
            ctx.reply().error(NO_ACL_FILE);
        } else if (acl.save()) {
            ctx.reply().ok();
        } else {
            ctx.reply().error("ERR There was an error trying to save the ACLs. Please check the server logs for more "
                + "information");
        }
    }

    /** ACL CAT [category]: the categories, or the commands and subcommands of one. */
    private static void cat(CoreContext ctx) {
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        if (args.count() == 2) {
            reply.array(CommandDescriptions.CATEGORY_ORDER.size());
            CommandDescriptions.CATEGORY_ORDER.forEach(reply::bulk);
            return;
        }
        if (args.count() != 3) {
            reply.error(syntaxError(args));
            return;
        }
        String category = args.string(2).toLowerCase(Locale.ROOT);
        if (!CommandDescriptions.CATEGORY_ORDER.contains(category)) {
            String name = args.string(2);
            reply.error("ERR Unknown category '" + (name.length() > 128 ? name.substring(0, 128) : name) + "'");
            return;
        }
        List<String> names = new ArrayList<>();
        for (Command<?> command : ctx.server().commands().commands()) {
            addInCategory(command, category, names);
        }
        reply.array(names.size());
        names.forEach(reply::bulk);
    }

    private static void addInCategory(Command<?> command, String category, List<String> names) {
        if (!command.owner().equals("core")) {
            return;
        }
        if (CommandDescriptions.aclCategories(command.spec()).contains(category)) {
            names.add(command.spec().name());
        }
        for (Command<?> subcommand : command.subcommands()) {
            addInCategory(subcommand, category, names);
        }
    }

    /** Redis's addReplySubcommandSyntaxError, for a subcommand given too many arguments. */
    private static String syntaxError(Arguments args) {
        String name = args.string(1);
        return "ERR unknown subcommand or wrong number of arguments for '"
            + (name.length() > 128 ? name.substring(0, 128) : name) + "'. Try ACL HELP.";
    }

    /** ACL GENPASS [bits]: that many random bits (rounded up to a hex digit) in hex. */
    private static void generatePassword(CoreContext ctx) {
        Arguments args = ctx.arguments();
        long bits = GENPASS_BITS;
        if (args.count() > 3) {
            ctx.reply().error(syntaxError(args));
            return;
        }
        if (args.count() == 3) {
            try {
                bits = Numbers.parseLong(args.array(), args.offset(2), args.length(2));
            } catch (RuntimeException e) {
                ctx.reply().error(Errors.NOT_INTEGER);
                return;
            }
        }
        if (bits <= 0 || bits > GENPASS_MAX_BITS) {
            ctx.reply().error("ERR ACL GENPASS argument must be the number of bits for the output password, a "
                + "positive number up to " + GENPASS_MAX_BITS);
            return;
        }
        int chars = (int) ((bits + 3) / 4);
        byte[] random = new byte[(chars + 1) / 2];
        RANDOM.nextBytes(random);
        ctx.reply().bulk(HexFormat.of().formatHex(random).substring(0, chars));
    }

    /** ACL LOG [count | RESET]: the newest entries first, 10 without a count. */
    private static void log(CoreContext ctx) {
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        AclLog log = acl(ctx).log();
        long count = 10;
        if (args.count() > 3) {
            reply.error(syntaxError(args));
            return;
        }
        if (args.count() == 3) {
            if (args.is(2, "RESET")) {
                log.reset();
                reply.ok();
                return;
            }
            try {
                count = Math.max(0, Numbers.parseLong(args.array(), args.offset(2), args.length(2)));
            } catch (RuntimeException e) {
                reply.error(Errors.NOT_INTEGER);
                return;
            }
        }
        List<AclLog.Entry> entries = log.newest(count);
        long now = System.currentTimeMillis();
        reply.array(entries.size());
        for (AclLog.Entry entry : entries) {
            reply.map(7);
            reply.bulk("count");
            reply.integer(entry.count());
            reply.bulk("reason");
            reply.bulk(entry.reason().text());
            reply.bulk("context");
            reply.bulk(entry.context());
            reply.bulk("object");
            reply.bulk(entry.object());
            reply.bulk("username");
            reply.bulk(entry.username());
            reply.bulk("age-seconds");
            reply.doubleValue((now - entry.millis()) / 1000.0);
            reply.bulk("client-info");
            reply.bulk(entry.clientInfo());
        }
    }

    /** ACL DRYRUN username command [arg ...]: OK, or why the user may not run it (a bulk string, not an error). */
    private static void dryRun(CoreContext ctx) {
        Arguments args = ctx.arguments();
        Acl acl = acl(ctx);
        AclUser user = acl.user(args.string(2));
        if (user == null) {
            ctx.reply().error("ERR User '" + args.string(2) + "' not found");
            return;
        }
        Arguments request = new ServerCommands.ShiftedArguments(args, 3);
        Command<?> command = ctx.server().commands().lookup(request.string(0));
        if (command != null && !command.subcommands().isEmpty() && request.count() >= 2) {
            command = command.subcommand(request.string(1).toLowerCase(Locale.ROOT));
        }
        if (command == null) {
            ctx.reply().error("ERR Command '" + args.string(3) + "' not found");
            return;
        }
        if (!command.spec().acceptsArgumentCount(request.count())) {
            ctx.reply().error("ERR wrong number of arguments for '" + command.spec().name() + "' command");
            return;
        }
        Acl.Denial denial = acl.check(user.rules(), command, request);
        if (denial == null) {
            ctx.reply().ok();
            return;
        }
        ctx.reply().bulk(switch (denial.reason()) {
            case COMMAND -> "This user has no permissions to run the '" + command.spec().name() + "' command";
            case KEY -> "This user has no permissions to access the '" + request.string(denial.position()) + "' key";
            default -> "This user has no permissions to access the '" + request.string(denial.position())
                + "' channel";
        });
    }
}
