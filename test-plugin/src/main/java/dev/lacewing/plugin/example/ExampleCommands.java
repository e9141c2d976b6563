package dev.lacewing.plugin.example;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandContext;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandProvider;
import dev.lacewing.api.CommandRegistry;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.KeyScope;
import java.util.List;
import java.util.Set;

/**
 * The module "example": EXAMPLE.ECHO replies its argument, EXAMPLE.SUM the sum of its integer
 * arguments, EXAMPLE.ARGS the arguments MODULE LOAD gave the module. None touches the keyspace, so
 * they run on the connection's own thread.
 */
public final class ExampleCommands implements CommandProvider {

    static final String NOT_AN_INTEGER = "ERR value is not an integer or out of range";
    static final String OVERFLOW = "ERR increment or decrement would overflow";

    @Override
    public String name() {
        return "example";
    }

    @Override
    public void registerCommands(CommandRegistry registry) {
        registry.register(spec("example.echo", 2, "Replies its argument."), ExampleCommands::echo);
        registry.register(spec("example.sum", -2, "Replies the sum of its integer arguments."), ExampleCommands::sum);
        List<String> loadedWith = registry.arguments();
        registry.register(spec("example.args", 1, "Replies the arguments the module was loaded with."),
            ctx -> {
                ctx.reply().array(loadedWith.size());
                loadedWith.forEach(ctx.reply()::bulk);
            });
    }

    private static CommandSpec spec(String name, int arity, String summary) {
        return new CommandSpec(name, arity, Set.of(CommandFlag.FAST), 0, 0, 0, KeyScope.NONE, "module", summary);
    }

    /** EXAMPLE.ECHO message */
    private static void echo(CommandContext ctx) {
        Arguments args = ctx.arguments();
        ctx.reply().bulk(args.array(), args.offset(1), args.length(1));
    }

    /** EXAMPLE.SUM integer [integer ...] */
    private static void sum(CommandContext ctx) {
        Arguments args = ctx.arguments();
        long sum = 0;
        for (int i = 1; i < args.count(); i++) {
            long value;
            try {
                value = Long.parseLong(args.string(i));
            } catch (NumberFormatException e) {
                ctx.reply().error(NOT_AN_INTEGER);
                return;
            }
            try {
                sum = Math.addExact(sum, value);
            } catch (ArithmeticException e) {
                ctx.reply().error(OVERFLOW);
                return;
            }
        }
        ctx.reply().integer(sum);
    }
}
