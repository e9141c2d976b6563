package dev.lacewing.core.command;

import dev.lacewing.api.CommandContext;
import dev.lacewing.api.CommandHandler;
import dev.lacewing.api.CommandRegistry;
import dev.lacewing.api.CommandSpec;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The command table: every command's spec and handler. It drives dispatch, COMMAND output, key
 * routing to shards and, later, ACLs. Lookup hashes the request's name bytes case-insensitively
 * into an open-addressing array and compares in place: no String per request.
 *
 * <p>Thread rule: immutable; the server publishes a new table when plugins add or remove commands.
 *
 * @param <C> the context type of the server that runs the commands ({@link Command})
 */
public final class CommandTable<C extends CommandContext> {

    /**
     * Each byte with ASCII upper case made lower. A table rather than a range test: a branch taken
     * only for upper-case names, unseen while the JIT profiled lower-case clients, made the compiled
     * dispatch path deoptimize at the first upper-case command.
     */
    private static final byte[] LOWER_CASE = new byte[256];

    static {
        for (int b = 0; b < 256; b++) {
            LOWER_CASE[b] = (byte) (b >= 'A' && b <= 'Z' ? b | 0x20 : b);
        }
    }

    private final Map<String, Command<C>> byName;
    private final Command<C>[] slots;

    @SuppressWarnings("unchecked") // an array of a generic type is made raw; it holds only Command<C>
    private CommandTable(Map<String, Command<C>> byName) {
        this.byName = Collections.unmodifiableMap(new LinkedHashMap<>(byName));
        int capacity = Integer.highestOneBit(Math.max(byName.size(), 1) * 4 - 1) << 1;
        slots = (Command<C>[]) new Command<?>[capacity];
        for (Command<C> command : byName.values()) {
            byte[] name = command.nameBytes();
            int i = hash(name, 0, name.length) & (capacity - 1);
            while (slots[i] != null) {
                i = (i + 1) & (capacity - 1);
            }
            slots[i] = command;
        }
    }

    /** The command named by the bytes, in any case, or null. */
    public Command<C> lookup(byte[] bytes, int offset, int length) {
        int mask = slots.length - 1;
        for (int i = hash(bytes, offset, length) & mask; ; i = (i + 1) & mask) {
            Command<C> command = slots[i];
            if (command == null) {
                return null;
            }
            if (equalsIgnoreCase(command.nameBytes(), bytes, offset, length)) {
                return command;
            }
        }
    }

    /** The command, or with {@code container|name} a subcommand, in any case, or null. */
    public Command<C> lookup(String name) {
        String lower = name.toLowerCase(java.util.Locale.ROOT);
        int bar = lower.indexOf('|');
        if (bar < 0) {
            return byName.get(lower);
        }
        Command<C> container = byName.get(lower.substring(0, bar));
        return container == null ? null : container.subcommand(lower.substring(bar + 1));
    }

    public Collection<Command<C>> commands() {
        return byName.values();
    }

    public int size() {
        return byName.size();
    }

    /** A new table with the commands of {@code builder} added. */
    public CommandTable<C> with(Builder<C> builder) {
        Builder<C> merged = new Builder<>(builder.owner);
        merged.commands.putAll(byName);
        for (Command<C> command : builder.commands.values()) {
            if (merged.commands.putIfAbsent(command.spec().name(), command) != null) {
                throw new IllegalArgumentException("command '" + command.spec().name() + "' already exists");
            }
        }
        return merged.build();
    }

    /** A new table without the commands {@code remove} selects. */
    public CommandTable<C> without(Predicate<Command<C>> remove) {
        Map<String, Command<C>> kept = new LinkedHashMap<>(byName);
        kept.values().removeIf(remove);
        return new CommandTable<>(kept);
    }

    private static int hash(byte[] bytes, int offset, int length) {
        int h = length;
        for (int i = offset; i < offset + length; i++) {
            h = h * 31 + (bytes[i] | 0x20);
        }
        return h ^ (h >>> 15);
    }

    private static boolean equalsIgnoreCase(byte[] lowerName, byte[] bytes, int offset, int length) {
        if (lowerName.length != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (lowerName[i] != LOWER_CASE[bytes[offset + i] & 0xff]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Collects commands; families and plugins register through it. The built-in families' specs
     * (owner {@value #CORE}) get Redis's details from {@link RedisCommandDetails}.
     */
    public static final class Builder<C extends CommandContext> implements CommandRegistry {

        public static final String CORE = "core";

        private final String owner;
        private final List<String> arguments;
        private final Map<String, Command<C>> commands = new LinkedHashMap<>();

        public Builder(String owner) {
            this(owner, List.of());
        }

        /** A builder for a plugin loaded with {@code arguments} (MODULE LOAD path arg...). */
        public Builder(String owner, List<String> arguments) {
            this.owner = owner;
            this.arguments = List.copyOf(arguments);
        }

        @Override
        public List<String> arguments() {
            return arguments;
        }

        @Override
        public void register(CommandSpec spec, CommandHandler handler) {
            add(new Command<>(described(spec), handler, owner));
        }

        /** Adds one of core's own commands, whose body takes the server's context type. */
        public void registerCore(CommandSpec spec, ContextHandler<? super C> body) {
            add(new Command<>(described(spec), body, owner));
        }

        private CommandSpec described(CommandSpec spec) {
            return owner.equals(CORE) ? RedisCommandDetails.attach(spec) : spec;
        }

        private void add(Command<C> command) {
            String name = command.spec().name();
            if (commands.putIfAbsent(name, command) != null) {
                throw new IllegalArgumentException("command '" + name + "' registered twice");
            }
        }

        public List<String> names() {
            return new ArrayList<>(commands.keySet());
        }

        public CommandTable<C> build() {
            return new CommandTable<>(commands);
        }
    }
}
