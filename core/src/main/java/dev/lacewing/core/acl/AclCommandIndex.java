package dev.lacewing.core.acl;

import dev.lacewing.core.command.Command;
import dev.lacewing.core.command.CommandTable;
import dev.lacewing.core.command.server.CommandDescriptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The command table as ACL rules see it: every command and subcommand with its ACL id and its
 * categories as a bit mask over {@link #CATEGORIES}, in table order (Redis walks its command dict).
 * Built again when the table changes (a plugin loads or unloads).
 *
 * <p>Thread rule: immutable.
 */
final class AclCommandIndex {

    /** Redis's ACLCommandCategories, in its order: ACL CAT lists them so, ACL LIST tries them so. */
    static final List<String> CATEGORIES = CommandDescriptions.CATEGORY_ORDER;

    /** One command or subcommand; {@code subcommands} is empty for a subcommand. */
    record Entry(Command<?> command, int id, String fullName, long categories, boolean module, List<Entry> subcommands) {
    }

    final CommandTable<?> table;
    final List<Entry> commands;

    AclCommandIndex(CommandTable<?> table) {
        this.table = table;
        List<Entry> entries = new ArrayList<>();
        for (Command<?> command : table.commands()) {
            entries.add(entry(command));
        }
        this.commands = List.copyOf(entries);
    }

    private static Entry entry(Command<?> command) {
        List<Entry> subcommands = new ArrayList<>();
        for (Command<?> subcommand : command.subcommands()) {
            subcommands.add(entry(subcommand));
        }
        long mask = 0;
        for (String category : CommandDescriptions.aclCategories(command.spec())) {
            mask |= categoryBit(category);
        }
        return new Entry(command, command.aclId(), command.spec().name(), mask,
            !command.owner().equals("core"), List.copyOf(subcommands));
    }

    /** The bit of a category name (without '@', any case), or 0 when there is no such category. */
    static long categoryBit(String name) {
        int index = CATEGORIES.indexOf(name.toLowerCase(Locale.ROOT));
        return index < 0 ? 0 : 1L << index;
    }

    /**
     * The entry for "name" or "container|subcommand", as Redis's ACLLookupCommand: null for more than
     * one '|', for a subcommand of a command without any, or for an unknown name.
     */
    Entry lookup(String name) {
        String[] parts = name.split("\\|", -1);
        if (parts.length > 2) {
            return null;
        }
        Command<?> base = table.lookup(parts[0]);
        if (base == null) {
            return null;
        }
        Entry entry = find(base);
        if (parts.length == 1) {
            return entry;
        }
        if (entry.subcommands().isEmpty()) {
            return null;
        }
        String subcommand = parts[0].toLowerCase(Locale.ROOT) + "|" + parts[1].toLowerCase(Locale.ROOT);
        for (Entry sub : entry.subcommands()) {
            if (sub.fullName().equals(subcommand)) {
                return sub;
            }
        }
        return null;
    }

    private Entry find(Command<?> command) {
        for (Entry entry : commands) {
            if (entry.command() == command) {
                return entry;
            }
        }
        throw new IllegalStateException("not in the index: " + command.spec().name());
    }
}
