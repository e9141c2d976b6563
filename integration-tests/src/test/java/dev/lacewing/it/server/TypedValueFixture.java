package dev.lacewing.it.server;

import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandProvider;
import dev.lacewing.api.CommandRegistry;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.KeyScope;
import dev.lacewing.api.Keyspace;
import dev.lacewing.core.datatype.TypedValue;
import java.util.Set;

/**
 * A test-only command plugin: {@code TEST.SETLIST key} stores an aggregate value (type
 * {@code list}) at a key, so that the string commands' WRONGTYPE paths can be exercised before
 * any aggregate family exists. Where the reference comparison needs the same state on Redis it
 * sends {@code RPUSH key x} there instead.
 */
public final class TypedValueFixture implements CommandProvider {

    public static final String COMMAND = "test.setlist";

    @Override
    public String name() {
        return "test-fixture";
    }

    @Override
    public void registerCommands(CommandRegistry registry) {
        registry.register(new CommandSpec(COMMAND, 2, Set.of(CommandFlag.WRITE), 1, 1, 1, KeyScope.KEYS, "list",
            "Stores a one-element list-typed value at a key (tests only)."), ctx -> {
                var args = ctx.arguments();
                ctx.keyspace().put(args.array(), args.offset(1), args.length(1), new FixtureList(), Keyspace.NO_EXPIRY);
                ctx.reply().ok();
            });
    }

    private static final class FixtureList implements TypedValue {

        @Override
        public String typeName() {
            return "list";
        }

        @Override
        public String encoding() {
            return "listpack";
        }

        @Override
        public TypedValue copy() {
            return new FixtureList();
        }

        @Override
        public long memoryUsage() {
            return 16;
        }
    }
}
