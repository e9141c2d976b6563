package dev.lacewing.it.server;

import dev.lacewing.api.AggregateType;
import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandContext;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandHandler;
import dev.lacewing.api.CommandProvider;
import dev.lacewing.api.CommandRegistry;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.HashView;
import dev.lacewing.api.KeyScope;
import dev.lacewing.api.ListView;
import dev.lacewing.api.SetView;
import dev.lacewing.api.SortedSetView;
import dev.lacewing.api.storage.Aggregate;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A test-only command plugin written against the api alone (it imports nothing of core): it reads
 * the hashes, sets, sorted sets and lists core's commands store through {@code Keyspace.aggregate}
 * and the api's views, and replies what it read as an array of strings, so a test can compare it
 * with what core's own commands reply. Each command takes a key and an element:
 * <ul>
 *   <li>{@code TEST.HREAD key field}: the size, the field's value (or "nil"), then field=value pairs;</li>
 *   <li>{@code TEST.SREAD key member}: the size, whether the member is in, then the members;</li>
 *   <li>{@code TEST.ZREAD key member}: the size, the member's score and rank, then member=score by rank;</li>
 *   <li>{@code TEST.LREAD key index}: the size, the element at the index, then the elements.</li>
 * </ul>
 * A missing key replies an empty array; a key of another type, WRONGTYPE, from the api's one check.
 */
public final class AggregateReaderFixture implements CommandProvider {

    @Override
    public String name() {
        return "test-aggregate-reader";
    }

    @Override
    public void registerCommands(CommandRegistry registry) {
        register(registry, "test.hread", ctx -> {
            HashView hash = aggregate(ctx, AggregateType.HASH);
            if (hash != null) {
                List<String> read = new ArrayList<>(List.of(String.valueOf(hash.size()), text(hash.get(element(ctx)))));
                hash.forEach((field, value) -> read.add(text(field) + "=" + text(value)));
                reply(ctx, read);
            }
        });
        register(registry, "test.sread", ctx -> {
            SetView set = aggregate(ctx, AggregateType.SET);
            if (set != null) {
                List<String> read = new ArrayList<>(List.of(String.valueOf(set.size()),
                    String.valueOf(set.contains(element(ctx)))));
                set.forEach(member -> read.add(text(member)));
                reply(ctx, read);
            }
        });
        register(registry, "test.zread", ctx -> {
            SortedSetView zset = aggregate(ctx, AggregateType.SORTED_SET);
            if (zset != null) {
                byte[] member = element(ctx);
                List<String> read = new ArrayList<>(List.of(String.valueOf(zset.size()),
                    String.valueOf(zset.score(member)), String.valueOf(zset.rank(member, 0, member.length))));
                for (int rank = 0; rank < zset.size(); rank++) {
                    read.add(text(zset.memberAt(rank)) + "=" + zset.scoreAt(rank));
                }
                reply(ctx, read);
            }
        });
        register(registry, "test.lread", ctx -> {
            ListView list = aggregate(ctx, AggregateType.LIST);
            if (list != null) {
                long index = Long.parseLong(new String(element(ctx), StandardCharsets.US_ASCII));
                List<String> read = new ArrayList<>(List.of(String.valueOf(list.size()), text(list.get(index))));
                list.forEach(0, list.size() - 1, element -> read.add(text(element)));
                reply(ctx, read);
            }
        });
    }

    private static void register(CommandRegistry registry, String name, CommandHandler handler) {
        registry.register(new CommandSpec(name, 3, Set.of(CommandFlag.READONLY), 1, 1, 1, KeyScope.KEYS, "test",
            "Reads an aggregate through the api's views (tests only)."), handler);
    }

    /** The key's aggregate, or null after replying an empty array for a missing key. */
    private static <T extends Aggregate> T aggregate(CommandContext ctx, AggregateType<T> type) {
        Arguments args = ctx.arguments();
        T value = ctx.keyspace().aggregate(args.array(), args.offset(1), args.length(1), type);
        if (value == null) {
            ctx.reply().array(0);
        }
        return value;
    }

    private static byte[] element(CommandContext ctx) {
        return ctx.arguments().copy(2);
    }

    private static String text(byte[] bytes) {
        return bytes == null ? "nil" : new String(bytes, StandardCharsets.UTF_8);
    }

    private static void reply(CommandContext ctx, List<String> read) {
        ctx.reply().array(read.size());
        for (String line : read) {
            ctx.reply().bulk(line);
        }
    }
}
