package dev.lacewing.api;

import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * What the command table knows of a command, as Redis's {@code src/commands/*.json} declares it.
 *
 * @param name lower-case command name
 * @param arity Redis arity: exact argument count when positive, minimum when negative; the name counts
 * @param flags the flags COMMAND reports
 * @param firstKey index of the first key argument, 0 when there is none
 * @param lastKey index of the last key, negative counts from the end (-1 = last argument)
 * @param step distance between keys
 * @param scope which part of the keyspace the command touches
 * @param group Redis's command group ({@code string}, {@code generic}, {@code server}, ...)
 * @param summary one line for COMMAND DOCS
 * @param details key specs, tips, ACL categories, docs and subcommands; {@link CommandDetails#NONE} when
 *                the spec alone describes the command
 */
public record CommandSpec(String name, int arity, Set<CommandFlag> flags, int firstKey, int lastKey,
                          int step, KeyScope scope, String group, String summary, CommandDetails details) {

    public CommandSpec {
        name = name.toLowerCase(Locale.ROOT);
        flags = Set.copyOf(flags);
        Objects.requireNonNull(details);
    }

    /** A spec without details: COMMAND INFO and DOCS describe it from these fields alone. */
    public CommandSpec(String name, int arity, Set<CommandFlag> flags, int firstKey, int lastKey, int step,
                       KeyScope scope, String group, String summary) {
        this(name, arity, flags, firstKey, lastKey, step, scope, group, summary, CommandDetails.NONE);
    }

    public CommandSpec withDetails(CommandDetails newDetails) {
        return new CommandSpec(name, arity, flags, firstKey, lastKey, step, scope, group, summary, newDetails);
    }

    public boolean has(CommandFlag flag) {
        return flags.contains(flag);
    }

    /** Whether {@code argumentCount} (the name included) satisfies the arity. */
    public boolean acceptsArgumentCount(int argumentCount) {
        return arity >= 0 ? argumentCount == arity : argumentCount >= -arity;
    }

    /** The index of the last key for a request of {@code argumentCount} arguments. */
    public int lastKeyIndex(int argumentCount) {
        return lastKey >= 0 ? lastKey : argumentCount + lastKey;
    }
}
