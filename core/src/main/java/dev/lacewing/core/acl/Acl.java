package dev.lacewing.core.acl;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.core.command.Command;
import dev.lacewing.core.command.CommandTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The ACL users, as Redis 7.0 keeps them (src/acl.c): the {@code default} user, always there, that
 * new connections start as and {@code requirepass} sets the password of; users from {@code user}
 * directives or an {@code aclfile}; the checks that refuse a request with NOPERM; and ACL LOG.
 *
 * <p>A connection holds its {@link AclUser}; a user whose rules allow everything (the default user
 * as it starts) is {@link AclUser.Rules#unrestricted()}, and dispatch skips the check for it on that
 * one flag.
 *
 * <p>Thread rule: users are added, changed and removed under this object's lock, from any thread;
 * a user's rules are read without it (one volatile read).
 */
public final class Acl {

    /** A refusal: why, and the argument index of the key or channel refused (0 for a command). */
    public record Denial(AclLog.Reason reason, int position) {
    }

    /** Read permission, for {@link #allowsEveryKey}. */
    public static final int READ = AclSelector.READ;

    private final Supplier<CommandTable<?>> table;
    private final TreeMap<String, AclUser> users = new TreeMap<>();
    private final AclUser defaultUser;
    private final AclLog log;
    private final String file;
    private volatile boolean allChannelsByDefault;
    private volatile boolean defaultNeedsAuth;
    private volatile AclCommandIndex index;

    public Acl(Supplier<CommandTable<?>> table, boolean allChannelsByDefault, long logMaxLength, String file) {
        this.table = table;
        this.allChannelsByDefault = allChannelsByDefault;
        this.log = new AclLog(logMaxLength);
        this.file = file;
        this.defaultUser = new AclUser("default", defaultRules());
        users.put("default", defaultUser);
        defaultChanged();
    }

    private AclUser.Rules defaultRules() {
        AclUser.Draft draft = new AclUser.Draft(allChannelsByDefault);
        AclCommandIndex commands = index();
        for (String op : List.of("+@all", "~*", "&*", "on", "nopass")) {
            draft.apply(op, commands);
        }
        return draft.build();
    }

    public AclLog log() {
        return log;
    }

    public AclUser defaultUser() {
        return defaultUser;
    }

    /** Redis's authRequired before the per-connection flag: the default user needs a password or is off. */
    public boolean defaultNeedsAuth() {
        return defaultNeedsAuth;
    }

    public void allChannelsByDefault(boolean all) {
        this.allChannelsByDefault = all;
    }

    public void logMaxLength(long length) {
        log.maxLength(length);
    }

    public boolean hasFile() {
        return !file.isEmpty();
    }

    private void defaultChanged() {
        AclUser.Rules rules = defaultUser.rules();
        defaultNeedsAuth = !rules.nopass() || !rules.enabled();
    }

    AclCommandIndex index() {
        CommandTable<?> current = table.get();
        AclCommandIndex known = index;
        if (known == null || known.table != current) {
            known = new AclCommandIndex(current);
            index = known;
        }
        return known;
    }

    public AclUser user(String name) {
        synchronized (this) {
            return users.get(name);
        }
    }

    /** Users by name in byte order, as Redis's rax keeps them. */
    public List<AclUser> users() {
        synchronized (this) {
            return new ArrayList<>(users.values());
        }
    }

    /** The user when the password opens it (Redis's ACLCheckUserCredentials), null otherwise. */
    public AclUser authenticate(String name, String password) {
        AclUser user = user(name);
        return user != null && user.accepts(password) ? user : null;
    }

    /** requirepass: the default user's only password, or nopass when empty (ACLUpdateDefaultUserPassword). */
    public void defaultPassword(String password) {
        synchronized (this) {
            AclUser.Draft draft = new AclUser.Draft(defaultUser.rules(), allChannelsByDefault);
            draft.apply("resetpass", index());
            draft.apply(password.isEmpty() ? "nopass" : ">" + password, index());
            defaultUser.rules(draft.build());
            defaultChanged();
        }
    }

    /**
     * ACL SETUSER: applies every rule to a copy of the user (a new user when there is none) and
     * keeps the copy only when all of them applied. Returns Redis's error or null.
     *
     * @param pubSubChanged given the user's old and new rules when they lost channels, for closing
     *                      its pub/sub clients as Redis's ACLKillPubsubClientsIfNeeded does
     */
    public String setUser(String name, List<String> ops, PubSubCheck pubSubChanged) {
        if (AclSelector.hasSpaces(name)) {
            return "ERR Usernames can't contain spaces or null characters";
        }
        String[] unmatched = new String[1];
        List<String> merged = SplitArgs.mergeSelectors(ops, unmatched);
        if (merged == null) {
            return "ERR Unmatched parenthesis in acl selector starting at '" + unmatched[0] + "'.";
        }
        synchronized (this) {
            AclUser existing = users.get(name);
            AclUser.Draft draft = existing == null ? new AclUser.Draft(allChannelsByDefault)
                : new AclUser.Draft(existing.rules(), allChannelsByDefault);
            AclCommandIndex commands = index();
            for (String op : merged) {
                try {
                    draft.apply(op, commands);
                } catch (AclRuleException e) {
                    return "ERR Error in ACL SETUSER modifier '" + op + "': " + e.getMessage();
                }
            }
            AclUser.Rules rules = draft.build();
            if (existing == null) {
                users.put(name, new AclUser(name, rules));
            } else {
                AclUser.Rules before = existing.rules();
                existing.rules(rules);
                if (lostChannels(before, rules)) {
                    pubSubChanged.check(existing);
                }
                if (existing == defaultUser) {
                    defaultChanged();
                }
            }
            return null;
        }
    }

    /** Told of a user whose channel permissions shrank. */
    public interface PubSubCheck {
        void check(AclUser user);
    }

    /** Whether some channel pattern of the old rules is in none of the new ones (and none allows all). */
    private static boolean lostChannels(AclUser.Rules before, AclUser.Rules after) {
        List<String> upcoming = new ArrayList<>();
        for (AclSelector selector : after.selectors()) {
            if (selector.allChannels()) {
                return false;
            }
            upcoming.addAll(selector.channels());
        }
        for (AclSelector selector : before.selectors()) {
            if (selector.allChannels()) {
                return true;
            }
            for (String channel : selector.channels()) {
                if (!upcoming.contains(channel)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether the user may still hold a subscription to this channel or pattern. */
    public static boolean channelAllowed(AclUser user, byte[] channel, boolean isPattern) {
        for (AclSelector selector : user.rules().selectors()) {
            if (selector.allChannels() || AclSelector.channelAllowed(selector.channels(), channel, isPattern)) {
                return true;
            }
        }
        return false;
    }

    /** ACL DELUSER: the users of these names, removed; the caller closes their clients, as Redis does. */
    public List<AclUser> deleteUsers(List<String> names) {
        List<AclUser> gone = new ArrayList<>();
        synchronized (this) {
            for (String name : names) {
                AclUser user = users.remove(name);
                if (user != null) {
                    gone.add(user);
                }
            }
        }
        return gone;
    }

    /** The user's rules as ACL LIST and the ACL file write them, after "user NAME " (ACLDescribeUser). */
    public String describe(AclUser user) {
        AclUser.Rules rules = user.rules();
        StringBuilder out = new StringBuilder();
        for (String flag : flags(rules)) {
            out.append(flag).append(' ');
        }
        for (String password : rules.passwords()) {
            out.append('#').append(password).append(' ');
        }
        AclCommandIndex commands = index();
        for (AclSelector selector : rules.selectors()) {
            String described = selector.describe(commands);
            out.append(selector.root ? described : " (" + described + ")");
        }
        return out.toString();
    }

    /** The flags ACL GETUSER and ACL LIST show, in Redis's ACLUserFlags order. */
    public static List<String> flags(AclUser.Rules rules) {
        List<String> flags = new ArrayList<>();
        flags.add(rules.enabled() ? "on" : "off");
        if (rules.nopass()) {
            flags.add("nopass");
        }
        if (rules.sanitize() == AclUser.SANITIZE_SKIP) {
            flags.add("skip-sanitize-payload");
        } else if (rules.sanitize() == AclUser.SANITIZE) {
            flags.add("sanitize-payload");
        }
        return flags;
    }

    /** What ACL GETUSER shows of one selector: commands, keys, channels. */
    public List<String> describeSelector(AclUser.Rules rules, int selector) {
        AclSelector s = rules.selectors().get(selector);
        return List.of(s.describeCommands(index()), s.describeKeys(), s.describeChannels());
    }

    // ---- checks --------------------------------------------------------------------------

    /**
     * Whether the rules allow a request (Redis's ACLCheckAllUserCommandPerm): null when one
     * selector allows it whole, otherwise the denial Redis reports: the command when no selector
     * passed it, else the last key or channel refused.
     *
     * @param command the command or, for a container, the subcommand the request names
     */
    public Denial check(AclUser.Rules rules, Command<?> command, Arguments args) {
        AclKeys keys = null;
        AclLog.Reason relevant = AclLog.Reason.COMMAND;
        int lastPosition = 0;
        for (AclSelector selector : rules.selectors()) {
            AclLog.Reason reason = null;
            int position = 0;
            if (!commandAllowed(selector, command, args)) {
                reason = AclLog.Reason.COMMAND;
            }
            if (reason == null && !selector.allKeys()) {
                if (keys == null) {
                    keys = AclKeys.of(command.spec(), args);
                }
                for (int i = 0; i < keys.count(); i++) {
                    int at = keys.position(i);
                    if (!selector.allowsKey(args.array(), args.offset(at), args.length(at), keys.permissions(i))) {
                        reason = AclLog.Reason.KEY;
                        position = at;
                        break;
                    }
                }
            }
            if (reason == null && !selector.allChannels()) {
                position = refusedChannel(selector, command, args);
                if (position > 0) {
                    reason = AclLog.Reason.CHANNEL;
                }
            }
            if (reason == null) {
                return null;
            }
            if (reason.ordinal() > relevant.ordinal() || (reason == relevant && position > lastPosition)) {
                relevant = reason;
                lastPosition = position;
            }
        }
        return new Denial(relevant, lastPosition);
    }

    private static boolean commandAllowed(AclSelector selector, Command<?> command, Arguments args) {
        if (selector.allCommands() || command.spec().has(CommandFlag.NO_AUTH) || selector.allows(command.aclId())) {
            return true;
        }
        List<String> firstArgs = selector.firstArgs(command.aclId());
        if (firstArgs == null || args.count() < 2) {
            return false;
        }
        int index = command.parent() != null ? 2 : 1;
        if (index >= args.count()) {
            return false;
        }
        String first = args.string(index);
        for (String allowed : firstArgs) {
            if (allowed.equalsIgnoreCase(first)) {
                return true;
            }
        }
        return false;
    }

    /** The first channel argument the selector refuses, or 0: what PUBLISH and the SUBSCRIBE family name. */
    private static int refusedChannel(AclSelector selector, Command<?> command, Arguments args) {
        String name = command.spec().name();
        int from;
        int to;
        boolean patterns = false;
        switch (name) {
            case "publish", "spublish" -> {
                from = 1;
                to = 1;
            }
            case "subscribe", "ssubscribe" -> {
                from = 1;
                to = args.count() - 1;
            }
            case "psubscribe" -> {
                from = 1;
                to = args.count() - 1;
                patterns = true;
            }
            default -> {
                return 0;
            }
        }
        for (int i = from; i <= to && i < args.count(); i++) {
            byte[] channel = java.util.Arrays.copyOfRange(args.array(), args.offset(i), args.offset(i) + args.length(i));
            if (!AclSelector.channelAllowed(selector.channels(), channel, patterns)) {
                return i;
            }
        }
        return 0;
    }

    /**
     * Whether some selector allows the request and gives every key with these permissions (Redis's
     * ACLUserCheckCmdWithUnrestrictedKeyAccess): SORT's BY and GET patterns need it.
     */
    public boolean allowsEveryKey(AclUser.Rules rules, Command<?> command, Arguments args, int permissions) {
        if (rules.unrestricted()) {
            return true;
        }
        for (AclSelector selector : rules.selectors()) {
            AclUser.Rules single = new AclUser.Rules(true, false, 0, List.of(), List.of(selector), false);
            if (check(single, command, args) == null && selector.allowsEveryKey(permissions)) {
                return true;
            }
        }
        return false;
    }

    // ---- the ACL file and user directives -------------------------------------------------

    /**
     * Applies the {@code user} directives of the configuration, then the ACL file (Redis's
     * ACLLoadUsersAtStartup).
     *
     * @throws IllegalArgumentException with Redis's reason when both are given or a rule is wrong
     */
    public void loadAtStartup(List<String> userDirectives) {
        if (!file.isEmpty() && !userDirectives.isEmpty()) {
            throw new IllegalArgumentException("Configuring Redis with users defined in redis.conf and at the same "
                + "setting an ACL file path is invalid. This setup is very likely to lead to configuration errors "
                + "and security holes, please define either an ACL file or declare users directly in your "
                + "redis.conf, but not both.");
        }
        List<String> seen = new ArrayList<>();
        for (String directive : userDirectives) {
            List<String> words = SplitArgs.split(directive);
            if (words.isEmpty()) {
                throw new IllegalArgumentException("Error in user declaration '': Syntax error");
            }
            String name = words.get(0);
            if (seen.contains(name)) {
                throw new IllegalArgumentException("Error in user declaration '" + name + "': Duplicate user found. "
                    + "A user can only be defined once in config files");
            }
            seen.add(name);
            String[] unmatched = new String[1];
            List<String> ops = SplitArgs.mergeSelectors(words.subList(1, words.size()), unmatched);
            if (ops == null) {
                throw new IllegalArgumentException("Unmatched parenthesis in selector definition.");
            }
            synchronized (this) {
                AclUser.Draft draft = new AclUser.Draft(allChannelsByDefault);
                if (name.equals("default")) {
                    // Redis's ACLLoadConfiguredUsers resets the existing default user first: it
                    // gets reset's sanitize-payload, where a new user starts without it.
                    ops = new ArrayList<>(ops);
                    ops.add(0, "reset");
                }
                for (String op : ops) {
                    try {
                        draft.apply(op, index());
                    } catch (AclRuleException e) {
                        throw new IllegalArgumentException("Error loading ACL rule '" + op + "' for the user named '"
                            + name + "': " + e.getMessage());
                    }
                }
                if (name.equals("default")) {
                    defaultUser.rules(draft.build());
                    defaultChanged();
                } else {
                    users.put(name, new AclUser(name, draft.build()));
                }
            }
        }
        if (!file.isEmpty()) {
            String errors = load(new ArrayList<>());
            if (errors != null) {
                throw new IllegalArgumentException("Aborting Redis startup because of ACL errors: " + errors);
            }
        }
    }

    /**
     * ACL LOAD: replaces every user with the file's, or changes nothing; Redis's errors, or null.
     * The default user keeps its identity; the others replaced are added to {@code gone}, for the
     * caller to close their clients.
     */
    public String load(List<AclUser> gone) {
        List<String> lines;
        try {
            lines = Files.readAllLines(Path.of(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "Error loading ACLs, opening file '" + file + "': " + ioReason(e);
        }
        StringBuilder errors = new StringBuilder();
        Map<String, AclUser.Rules> loaded = new TreeMap<>();
        synchronized (this) {
            AclCommandIndex commands = index();
            for (int i = 0; i < lines.size(); i++) {
                int lineNumber = i + 1;
                String line = lines.get(i).strip();
                if (line.isEmpty()) {
                    continue;
                }
                List<String> words = new ArrayList<>();
                for (String word : line.split(" ", -1)) {
                    words.add(word);
                }
                if (!words.get(0).equals("user") || words.size() < 2) {
                    errors.append(file).append(':').append(lineNumber)
                        .append(" should start with user keyword followed by the username. ");
                    continue;
                }
                String name = words.get(1);
                if (AclSelector.hasSpaces(name)) {
                    errors.append("'").append(file).append(':').append(lineNumber).append(": username '").append(name)
                        .append("' contains invalid characters. ");
                    continue;
                }
                if (loaded.containsKey(name)) {
                    errors.append("WARNING: Duplicate user '").append(name).append("' found on line ")
                        .append(lineNumber).append(". ");
                    continue;
                }
                List<String> ops = SplitArgs.mergeSelectors(words.subList(2, words.size()), new String[1]);
                if (ops == null) {
                    errors.append(file).append(':').append(lineNumber)
                        .append(": Unmatched parenthesis in selector definition.");
                    continue;
                }
                AclUser.Draft draft = new AclUser.Draft(allChannelsByDefault);
                boolean syntaxError = false;
                for (String op : ops) {
                    String trimmed = op.strip();
                    try {
                        draft.apply(trimmed, commands);
                    } catch (AclRuleException e) {
                        if (e.unknownName()) {
                            errors.append(file).append(':').append(lineNumber).append(": Error in applying operation '")
                                .append(trimmed).append("': ").append(e.getMessage()).append(". ");
                        } else if (!syntaxError) {
                            errors.append(file).append(':').append(lineNumber).append(": ").append(e.getMessage())
                                .append(". ");
                            syntaxError = true;
                        }
                    }
                }
                loaded.put(name, draft.build());
            }
            if (!errors.isEmpty()) {
                return errors.append("WARNING: ACL errors detected, no change to the previously active ACL rules was "
                    + "performed").toString();
            }
            users.values().stream().filter(user -> user != defaultUser).forEach(gone::add);
            users.clear();
            defaultUser.rules(loaded.containsKey("default") ? loaded.remove("default") : defaultRules());
            defaultChanged();
            users.put("default", defaultUser);
            loaded.forEach((name, rules) -> users.put(name, new AclUser(name, rules)));
        }
        return null;
    }

    /** Every user as a "user NAME RULES" line, in name order: the ACL file's and CONFIG REWRITE's form. */
    public List<String> userLines() {
        List<String> lines = new ArrayList<>();
        for (AclUser user : users()) {
            lines.add("user " + user.name() + " " + describe(user));
        }
        return lines;
    }

    /** ACL SAVE: every user in the file format, written to a temporary file renamed over the file. */
    public boolean save() {
        StringBuilder out = new StringBuilder();
        for (String line : userLines()) {
            out.append(line).append('\n');
        }
        Path target = Path.of(file);
        Path temporary = Path.of(file + ".tmp-" + ProcessHandle.current().pid() + "-" + System.currentTimeMillis());
        try {
            Files.writeString(temporary, out, StandardCharsets.UTF_8);
            Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return true;
        } catch (IOException e) {
            try {
                Files.deleteIfExists(temporary);
            } catch (IOException ignored) {
                // The save failed already; the temporary file is left for the operator.
            }
            return false;
        }
    }

    private static String ioReason(IOException e) {
        return e instanceof java.nio.file.NoSuchFileException ? "No such file or directory"
            : e instanceof java.nio.file.AccessDeniedException ? "Permission denied" : String.valueOf(e.getMessage());
    }
}
