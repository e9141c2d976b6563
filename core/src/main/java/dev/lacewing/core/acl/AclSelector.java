package dev.lacewing.core.acl;

import dev.lacewing.core.command.Glob;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One ACL selector, Redis's aclSelector: which commands (by ACL id, plus the first arguments allowed
 * of otherwise blocked commands), which key patterns with their read/write permissions, which
 * channel patterns. A user has a root selector and any number of others; a command runs when one
 * selector allows it whole.
 *
 * <p>The command bits are {@code allCommandsBase} (what +@all or -@all set, and what a command
 * loaded later gets: Redis's reserved future-commands bit) flipped where {@code flipped} is set.
 *
 * <p>Thread rule: mutable only while ACL SETUSER or a load builds it under the {@link Acl} lock; a
 * selector a user publishes is never changed again, so checks read it from any thread.
 */
final class AclSelector {

    static final int READ = 1;
    static final int WRITE = 2;
    static final int READ_WRITE = READ | WRITE;

    /** A key pattern and the permissions it gives: {@code ~p} both, {@code %R~p} read, {@code %W~p} write. */
    record KeyPattern(String pattern, byte[] bytes, int permissions) {

        String describe() {
            return switch (permissions) {
                case READ_WRITE -> "~" + pattern;
                case READ -> "%R~" + pattern;
                case WRITE -> "%W~" + pattern;
                default -> "%~" + pattern;
            };
        }
    }

    final boolean root;
    private boolean allCommandsBase;
    private final BitSet flipped;
    /** Redis's SELECTOR_FLAG_ALLCOMMANDS: set by +@all, cleared by any command taken away. */
    private boolean allCommands;
    /** By ACL id: first arguments allowed of a command whose bit is clear ({@code +select|0}). */
    private final Map<Integer, List<String>> firstArgs;
    private boolean allKeys;
    private final List<KeyPattern> keys;
    private boolean allChannels;
    private final List<String> channels;

    AclSelector(boolean root, boolean allChannelsByDefault) {
        this.root = root;
        this.flipped = new BitSet();
        this.firstArgs = new LinkedHashMap<>();
        this.keys = new ArrayList<>();
        this.channels = new ArrayList<>();
        this.allChannels = allChannelsByDefault;
    }

    private AclSelector(AclSelector from) {
        this.root = from.root;
        this.allCommandsBase = from.allCommandsBase;
        this.flipped = (BitSet) from.flipped.clone();
        this.allCommands = from.allCommands;
        this.firstArgs = new LinkedHashMap<>();
        from.firstArgs.forEach((id, args) -> firstArgs.put(id, new ArrayList<>(args)));
        this.allKeys = from.allKeys;
        this.keys = new ArrayList<>(from.keys);
        this.allChannels = from.allChannels;
        this.channels = new ArrayList<>(from.channels);
    }

    AclSelector copy() {
        return new AclSelector(this);
    }

    boolean allCommands() {
        return allCommands;
    }

    boolean allKeys() {
        return allKeys;
    }

    boolean allChannels() {
        return allChannels;
    }

    List<KeyPattern> keys() {
        return keys;
    }

    List<String> channels() {
        return channels;
    }

    boolean futureCommands() {
        return allCommandsBase;
    }

    boolean allows(int id) {
        return allCommandsBase != flipped.get(id);
    }

    List<String> firstArgs(int id) {
        return firstArgs.get(id);
    }

    boolean sameCommands(AclSelector other) {
        return allCommandsBase == other.allCommandsBase && flipped.equals(other.flipped);
    }

    private void setBit(int id, boolean allow) {
        flipped.set(id, allow != allCommandsBase);
        if (!allow) {
            allCommands = false;
        }
    }

    /** Redis's ACLChangeSelectorPerm: the command, its first-args reset, and all its subcommands. */
    void changePermission(AclCommandIndex.Entry entry, boolean allow) {
        setBit(entry.id(), allow);
        firstArgs.remove(entry.id());
        for (AclCommandIndex.Entry sub : entry.subcommands()) {
            setBit(sub.id(), allow);
        }
    }

    void changeCategory(AclCommandIndex index, long category, boolean allow) {
        changeCategory(index.commands, category, allow);
    }

    private void changeCategory(List<AclCommandIndex.Entry> entries, long category, boolean allow) {
        for (AclCommandIndex.Entry entry : entries) {
            if (entry.module()) {
                continue;
            }
            if ((entry.categories() & category) != 0) {
                changePermission(entry, allow);
            }
            changeCategory(entry.subcommands(), category, allow);
        }
    }

    void setAllCommands(boolean allow) {
        allCommandsBase = allow;
        flipped.clear();
        allCommands = allow;
        firstArgs.clear();
    }

    /**
     * Applies one selector rule (Redis's ACLSetSelector).
     *
     * @throws AclRuleException with Redis's reason when the rule is wrong
     */
    void apply(String op, AclCommandIndex index) {
        if (op.equalsIgnoreCase("allkeys") || op.equals("~*")) {
            allKeys = true;
            keys.clear();
        } else if (op.equalsIgnoreCase("resetkeys")) {
            allKeys = false;
            keys.clear();
        } else if (op.equalsIgnoreCase("allchannels") || op.equals("&*")) {
            allChannels = true;
            channels.clear();
        } else if (op.equalsIgnoreCase("resetchannels")) {
            allChannels = false;
            channels.clear();
        } else if (op.equalsIgnoreCase("allcommands") || op.equalsIgnoreCase("+@all")) {
            setAllCommands(true);
        } else if (op.equalsIgnoreCase("nocommands") || op.equalsIgnoreCase("-@all")) {
            setAllCommands(false);
        } else if (op.startsWith("~") || op.startsWith("%")) {
            addKeyPattern(op);
        } else if (op.startsWith("&")) {
            if (allChannels) {
                throw new AclRuleException(AclRuleException.CHANNELS_AFTER_ALL);
            }
            String pattern = op.substring(1);
            if (hasSpaces(pattern)) {
                throw new AclRuleException(AclRuleException.SYNTAX);
            }
            if (!channels.contains(pattern)) {
                channels.add(pattern);
            }
        } else if (op.startsWith("+") && !op.startsWith("+@")) {
            allowCommand(op.substring(1), index);
        } else if (op.startsWith("-") && !op.startsWith("-@")) {
            AclCommandIndex.Entry entry = index.lookup(op.substring(1));
            if (entry == null) {
                throw new AclRuleException(AclRuleException.UNKNOWN_COMMAND);
            }
            changePermission(entry, false);
        } else if (op.startsWith("+@") || op.startsWith("-@")) {
            long category = AclCommandIndex.categoryBit(op.substring(2));
            if (category == 0) {
                throw new AclRuleException(AclRuleException.UNKNOWN_COMMAND);
            }
            changeCategory(index, category, op.charAt(0) == '+');
        } else {
            throw new AclRuleException(AclRuleException.SYNTAX);
        }
    }

    private void addKeyPattern(String op) {
        if (allKeys) {
            throw new AclRuleException(AclRuleException.KEYS_AFTER_ALL);
        }
        int permissions = 0;
        int offset = 1;
        if (op.charAt(0) == '%') {
            for (; offset < op.length(); offset++) {
                char c = Character.toUpperCase(op.charAt(offset));
                if (c == 'R' && (permissions & READ) == 0) {
                    permissions |= READ;
                } else if (c == 'W' && (permissions & WRITE) == 0) {
                    permissions |= WRITE;
                } else if (op.charAt(offset) == '~') {
                    offset++;
                    break;
                } else {
                    throw new AclRuleException(AclRuleException.SYNTAX);
                }
            }
        } else {
            permissions = READ_WRITE;
        }
        String pattern = op.substring(Math.min(offset, op.length()));
        if (hasSpaces(pattern)) {
            throw new AclRuleException(AclRuleException.SYNTAX);
        }
        for (int i = 0; i < keys.size(); i++) {
            KeyPattern existing = keys.get(i);
            if (existing.pattern().equals(pattern)) {
                keys.set(i, new KeyPattern(pattern, existing.bytes(), existing.permissions() | permissions));
                return;
            }
        }
        keys.add(new KeyPattern(pattern, pattern.getBytes(StandardCharsets.UTF_8), permissions));
        allKeys = false;
    }

    private void allowCommand(String name, AclCommandIndex index) {
        int bar = name.lastIndexOf('|');
        if (bar < 0) {
            AclCommandIndex.Entry entry = index.lookup(name);
            if (entry == null) {
                throw new AclRuleException(AclRuleException.UNKNOWN_COMMAND);
            }
            changePermission(entry, true);
            return;
        }
        AclCommandIndex.Entry base = index.lookup(name.substring(0, bar));
        if (base == null) {
            throw new AclRuleException(AclRuleException.UNKNOWN_COMMAND);
        }
        if (base.command().parent() != null) {
            throw new AclRuleException(AclRuleException.FIRST_ARG_OF_SUBCOMMAND);
        }
        String first = name.substring(bar + 1);
        if (first.isEmpty()) {
            throw new AclRuleException(AclRuleException.SYNTAX);
        }
        if (!base.subcommands().isEmpty()) {
            AclCommandIndex.Entry sub = index.lookup(name);
            if (sub == null) {
                throw new AclRuleException(AclRuleException.UNKNOWN_COMMAND);
            }
            changePermission(sub, true);
            return;
        }
        List<String> allowed = firstArgs.computeIfAbsent(base.id(), id -> new ArrayList<>());
        for (String existing : allowed) {
            if (existing.equalsIgnoreCase(first)) {
                return;
            }
        }
        allowed.add(first);
    }

    /** Redis's ACLStringHasSpaces: whitespace or a NUL byte. */
    static boolean hasSpaces(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == ' ' || (c >= '\t' && c <= '\r') || c == 0) {
                return true;
            }
        }
        return false;
    }

    // ---- checks --------------------------------------------------------------------------

    /** Whether a key passes for the permissions a key spec asks (Redis's ACLSelectorCheckKey). */
    boolean allowsKey(byte[] array, int offset, int length, int needed) {
        if (allKeys) {
            return true;
        }
        for (KeyPattern pattern : keys) {
            if ((pattern.permissions() & needed) == needed
                && Glob.matches(pattern.bytes(), 0, pattern.bytes().length, array, offset, length, false)) {
                return true;
            }
        }
        return false;
    }

    /** Whether a {@code ~*}, {@code allkeys} or a pattern "*" with the permissions gives every key. */
    boolean allowsEveryKey(int needed) {
        if (allKeys) {
            return true;
        }
        for (KeyPattern pattern : keys) {
            if ((pattern.permissions() & needed) == needed && pattern.pattern().equals("*")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Redis's ACLCheckChannelAgainstList: a channel matches the patterns as globs; a PSUBSCRIBE
     * pattern only equals one literally.
     */
    static boolean channelAllowed(List<String> patterns, byte[] channel, boolean isPattern) {
        String literal = isPattern ? new String(channel, StandardCharsets.UTF_8) : null;
        for (String pattern : patterns) {
            if (isPattern ? pattern.equals(literal)
                : Glob.matches(pattern.getBytes(StandardCharsets.UTF_8), channel, false)) {
                return true;
            }
        }
        return false;
    }

    // ---- description ---------------------------------------------------------------------

    /** Keys, channels and command rules as ACL LIST shows them (Redis's ACLDescribeSelector). */
    String describe(AclCommandIndex index) {
        StringBuilder out = new StringBuilder();
        if (allKeys) {
            out.append("~* ");
        } else {
            for (KeyPattern pattern : keys) {
                out.append(pattern.describe()).append(' ');
            }
        }
        if (allChannels) {
            out.append("&* ");
        } else {
            out.append("resetchannels ");
            for (String channel : channels) {
                out.append('&').append(channel).append(' ');
            }
        }
        return out.append(describeCommands(index)).toString();
    }

    String describeKeys() {
        if (allKeys) {
            return "~*";
        }
        List<String> parts = new ArrayList<>();
        keys.forEach(pattern -> parts.add(pattern.describe()));
        return String.join(" ", parts);
    }

    String describeChannels() {
        if (allChannels) {
            return "&*";
        }
        List<String> parts = new ArrayList<>();
        channels.forEach(channel -> parts.add("&" + channel));
        return String.join(" ", parts);
    }

    /**
     * The command rules that rebuild these bits (Redis's ACLDescribeSelectorCommandRules): +@all or
     * -@all, then greedily the category that best fits what is left, then single commands and
     * first arguments for the remaining differences.
     */
    String describeCommands(AclCommandIndex index) {
        boolean additive = !allCommandsBase;
        StringBuilder rules = new StringBuilder(additive ? "-@all " : "+@all ");
        AclSelector fake = new AclSelector(false, false);
        fake.setAllCommands(!additive);
        AclSelector temp = new AclSelector(false, false);
        temp.allCommandsBase = allCommandsBase;
        temp.flipped.or(flipped);
        boolean[] applied = new boolean[AclCommandIndex.CATEGORIES.size()];
        while (true) {
            int best = -1;
            long minDiff = Integer.MAX_VALUE;
            long maxSame = 0;
            for (int j = 0; j < applied.length; j++) {
                if (applied[j]) {
                    continue;
                }
                long[] onOff = new long[2];
                temp.countCategory(index.commands, 1L << j, onOff);
                long diff = additive ? onOff[1] : onOff[0];
                long same = additive ? onOff[0] : onOff[1];
                if (same > diff && (diff < minDiff || (diff == minDiff && same > maxSame))) {
                    best = j;
                    minDiff = diff;
                    maxSame = same;
                }
            }
            if (best == -1) {
                break;
            }
            fake.changeCategory(index, 1L << best, additive);
            temp.changeCategory(index, 1L << best, !additive);
            rules.append(additive ? "+@" : "-@").append(AclCommandIndex.CATEGORIES.get(best)).append(' ');
            applied[best] = true;
        }
        describeSingleCommands(index.commands, fake, rules);
        rules.setLength(rules.length() - 1);
        return rules.toString();
    }

    private void countCategory(List<AclCommandIndex.Entry> entries, long category, long[] onOff) {
        for (AclCommandIndex.Entry entry : entries) {
            if ((entry.categories() & category) != 0) {
                onOff[allows(entry.id()) ? 0 : 1]++;
            }
            countCategory(entry.subcommands(), category, onOff);
        }
    }

    private void describeSingleCommands(List<AclCommandIndex.Entry> entries, AclSelector fake, StringBuilder rules) {
        for (AclCommandIndex.Entry entry : entries) {
            boolean userBit = allows(entry.id());
            if (userBit != fake.allows(entry.id())) {
                rules.append(userBit ? '+' : '-').append(entry.fullName()).append(' ');
                fake.changePermission(entry, userBit);
            }
            describeSingleCommands(entry.subcommands(), fake, rules);
            List<String> first = firstArgs.get(entry.id());
            if (!userBit && first != null) {
                for (String arg : first) {
                    rules.append('+').append(entry.fullName()).append('|').append(arg).append(' ');
                }
            }
        }
    }
}
