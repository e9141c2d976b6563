package dev.lacewing.core.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.api.CommandDetails;
import dev.lacewing.api.CommandDetails.Argument;
import dev.lacewing.api.CommandDetails.BeginSearch;
import dev.lacewing.api.CommandDetails.FindKeys;
import dev.lacewing.api.CommandDetails.KeySpec;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.KeyScope;
import dev.lacewing.core.server.CoreCommands;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RedisCommandDetailsTest {

    private static CommandTable<?> builtins() {
        return CoreCommands.table();
    }

    @Test
    void everyBuiltInCommandAndSubcommandHasDetailsAndEveryDetailHasItsCommand() {
        Set<String> declared = new HashSet<>();
        for (Command<?> command : builtins().commands()) {
            declared.add(command.spec().name());
            assertTrue(command.spec().details().docs().since() != null, command.spec().name());
            for (Command<?> subcommand : command.subcommands()) {
                declared.add(subcommand.spec().name());
                assertTrue(subcommand.spec().details().docs().since() != null, subcommand.spec().name());
            }
        }
        assertEquals(declared, RedisCommandDetails.names());
    }

    @Test
    void theTableJoinsDetailsToSpecsAndFindsSubcommandsByFullName() {
        CommandTable<?> table = builtins();
        CommandSpec rename = table.lookup("RENAME").spec();
        assertEquals(List.of(
            new KeySpec(List.of("RW", "access", "delete"), BeginSearch.index(1), FindKeys.range(0, 1, 0), null),
            new KeySpec(List.of("OW", "update"), BeginSearch.index(2), FindKeys.range(0, 1, 0), null)),
            rename.details().keySpecs());
        assertEquals(List.of("keyspace"), rename.details().aclCategories());
        CommandSpec usage = table.lookup("Memory|Usage").spec();
        assertEquals("memory|usage", usage.name());
        assertEquals(Set.of(CommandFlag.READONLY), usage.flags());
        assertEquals("O(N) where N is the number of samples.", usage.details().docs().complexity());
        assertEquals(null, table.lookup("memory|nosuch"));
        assertEquals(null, table.lookup("nosuch|usage"));
    }

    @Test
    void parsesNestedArgumentsQuotedWordsAndKeySpecForms() {
        Map<String, CommandDetails> parsed = RedisCommandDetails.parse("""
            # a comment
            command x
              acl string dangerous
              tip "request_policy:all_shards"
              key RO,access keyword STREAMS 1 keynum 0 1 1 notes="say \\"hi\\""
              key RW unknown unknown
              since 1.0.0
              complexity "O(1) \\\\ more"
              history 2.0.0 "Added `A`."
              doc_flag deprecated
              arg key key key_spec_index=0 multiple
              arg choice oneof optional
                arg a pure-token token=A
                arg b block
                  arg c integer token=C since=2.0.0
              arg last string summary="the end"
            command y
              since 2.0.0
            """);
        CommandDetails x = parsed.get("x");
        assertEquals(List.of("string", "dangerous"), x.aclCategories());
        assertEquals(List.of("request_policy:all_shards"), x.tips());
        assertEquals(new KeySpec(List.of("RO", "access"), BeginSearch.keyword("STREAMS", 1), FindKeys.keynum(0, 1, 1),
            "say \"hi\""), x.keySpecs().get(0));
        assertEquals(new KeySpec(List.of("RW"), BeginSearch.UNKNOWN, FindKeys.UNKNOWN, null), x.keySpecs().get(1));
        assertEquals("O(1) \\ more", x.docs().complexity());
        assertEquals(List.of("deprecated"), x.docs().docFlags());
        List<Argument> arguments = x.docs().arguments();
        assertEquals(3, arguments.size());
        assertEquals(new Argument("key", "key", 0, null, null, null, null, List.of("multiple"), List.of()),
            arguments.get(0));
        Argument c = arguments.get(1).arguments().get(1).arguments().get(0);
        assertEquals(new Argument("c", "integer", -1, "C", null, "2.0.0", null, List.of(), List.of()), c);
        assertEquals("the end", arguments.get(2).summary());
        assertEquals("2.0.0", parsed.get("y").docs().since());
    }

    @Test
    void aSpecWithoutDetailsKeepsTheOldConstructorsMeaning() {
        CommandSpec spec = new CommandSpec("X.Y", 2, Set.of(CommandFlag.FAST), 0, 0, 0, KeyScope.NONE, "module", "s");
        assertEquals(CommandDetails.NONE, spec.details());
        assertEquals(spec, RedisCommandDetails.attach(spec));
    }
}
