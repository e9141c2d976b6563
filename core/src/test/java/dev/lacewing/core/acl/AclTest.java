package dev.lacewing.core.acl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.api.Arguments;
import dev.lacewing.core.command.Command;
import dev.lacewing.core.command.CommandTable;
import dev.lacewing.core.server.CoreCommands;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The ACL model against what redis-server 7.0.15 answers for the same rules: ACL LIST's
 * canonical strings (single-command rules in the command table's order, where Redis's follow its
 * dict's random order), the checks' verdicts (command, key by read/write permission, channel,
 * first arguments, selectors), the LOG's grouping, and requirepass on the default user.
 */
class AclTest {

    private static final CommandTable<?> TABLE = CoreCommands.table();

    private static Acl acl() {
        return new Acl(() -> TABLE, false, 128, "");
    }

    private static String set(Acl acl, String name, String... ops) {
        return acl.setUser(name, List.of(ops), user -> { });
    }

    private static String listed(Acl acl, String name, String... ops) {
        assertNull(set(acl, name, ops));
        return acl.describe(acl.user(name));
    }

    @Test
    void rulesAreDescribedAsRedisListsThem() {
        Acl acl = acl();
        assertEquals("on #f64551fcd6f07823cb87971cfb91446425da18286b3ab1ef935e0cbd7a69f68a ~k* %R~r* %W~w* "
            + "resetchannels &ch* -@all +@hash +get -hset",
            listed(acl, "a", "on", ">p1", "~k*", "+get", "+@hash", "-hset", "&ch*", "%R~r*", "%W~w*"));
        assertEquals("off ~* &* +@all -@dangerous",
            listed(acl, "b", "+@all", "-@dangerous", "+client|info", "allkeys", "allchannels"));
        assertEquals("off ~x resetchannels -@all +get (~y* resetchannels -@all +set) (~z* resetchannels -@all +@read)",
            listed(acl, "c", "nocommands", "+get", "+get", "-get", "+get", "resetkeys", "~x", "(~y* +set)",
                "(+@read ~z*)"));
        assertEquals("off resetchannels +@all -client|kill", listed(acl, "d", "allcommands", "-client|kill"));
        assertEquals("off resetchannels +@all -@read", listed(acl, "e", "+@all", "+get", "-@read"));
        assertEquals("on nopass sanitize-payload ~* resetchannels -@all +get|x",
            listed(acl, "f", "on", "nopass", "sanitize-payload", "~*", "+get|x"));
        assertEquals("on nopass ~* &* +@all", acl.describe(acl.defaultUser()));
    }

    @Test
    void wrongRulesGetRedisErrorsAndChangeNothing() {
        Acl acl = acl();
        assertEquals("ERR Error in ACL SETUSER modifier '+foo': Unknown command or category name in ACL",
            set(acl, "h", "on", "+foo"));
        assertNull(acl.user("h"));
        assertEquals("ERR Error in ACL SETUSER modifier '+client|info|x': Allowing first-arg of a subcommand is not "
            + "supported", set(acl, "h", "+client|info|x"));
        assertEquals("ERR Unmatched parenthesis in acl selector starting at '(+get'.", set(acl, "h", "(+get"));
        assertEquals("ERR Error in ACL SETUSER modifier '#abc': The password hash must be exactly 64 characters and "
            + "contain only lowercase hexadecimal characters", set(acl, "h", "#abc"));
        assertEquals("ERR Error in ACL SETUSER modifier '(~a +nosuch)': Unknown command or category name in ACL",
            set(acl, "h", "(~a", "+nosuch)"));
        assertEquals("ERR Usernames can't contain spaces or null characters", set(acl, "a b", "on"));
    }

    @Test
    void keysNeedThePermissionsTheirKeySpecsAsk() {
        Acl acl = acl();
        set(acl, "u", "on", "nopass", "+@all", "%R~r*", "%W~w*", "~k*");
        AclUser.Rules rules = acl.user("u").rules();
        assertNull(acl.check(rules, command("get"), args("GET r1")));
        assertEquals(new Acl.Denial(AclLog.Reason.KEY, 1), acl.check(rules, command("get"), args("GET w1")));
        assertNull(acl.check(rules, command("set"), args("SET w1 v")), "SET without GET only writes");
        assertEquals(AclLog.Reason.KEY, acl.check(rules, command("set"), args("SET w1 v GET")).reason());
        assertNull(acl.check(rules, command("copy"), args("COPY r1 w2")));
        assertEquals(new Acl.Denial(AclLog.Reason.KEY, 2), acl.check(rules, command("mget"), args("MGET k1 x")));
        assertNull(acl.check(rules, command("bitfield"), args("BITFIELD r1 GET u8 0")));
        assertEquals(AclLog.Reason.KEY, acl.check(rules, command("bitfield"), args("BITFIELD r1 SET u8 0 1")).reason());
        assertEquals(new Acl.Denial(AclLog.Reason.KEY, 5), acl.check(rules, command("sort"), args("SORT k1 BY x STORE r2")));
    }

    @Test
    void commandsChannelsFirstArgumentsAndSelectors() {
        Acl acl = acl();
        set(acl, "u", "on", "nopass", "-@all", "+get", "+publish", "+psubscribe", "+select|0", "~*", "&news.*",
            "(+set ~s*)");
        AclUser.Rules rules = acl.user("u").rules();
        assertEquals(new Acl.Denial(AclLog.Reason.COMMAND, 0), acl.check(rules, command("del"), args("DEL a")));
        assertNull(acl.check(rules, command("select"), args("SELECT 0")));
        assertEquals(AclLog.Reason.COMMAND, acl.check(rules, command("select"), args("SELECT 1")).reason());
        assertNull(acl.check(rules, command("publish"), args("PUBLISH news.a m")));
        assertEquals(new Acl.Denial(AclLog.Reason.CHANNEL, 1), acl.check(rules, command("publish"), args("PUBLISH x m")));
        assertNull(acl.check(rules, command("psubscribe"), args("PSUBSCRIBE news.*")));
        assertEquals(AclLog.Reason.CHANNEL, acl.check(rules, command("psubscribe"), args("PSUBSCRIBE news.a")).reason(),
            "a pattern must equal an allowed pattern");
        assertNull(acl.check(rules, command("set"), args("SET s1 v")), "the selector allows it");
        assertEquals(new Acl.Denial(AclLog.Reason.KEY, 1), acl.check(rules, command("set"), args("SET t1 v")));
        Command clientInfo = command("client").subcommand("info");
        assertEquals(AclLog.Reason.COMMAND, acl.check(rules, clientInfo, args("CLIENT INFO")).reason());
        assertNull(acl.check(acl.defaultUser().rules(), clientInfo, args("CLIENT INFO")));
        assertTrue(acl.defaultUser().rules().unrestricted());
        assertTrue(!rules.unrestricted());
    }

    @Test
    void requirepassSetsTheDefaultUsersOnlyPassword() {
        Acl acl = acl();
        assertTrue(!acl.defaultNeedsAuth());
        acl.defaultPassword("pw");
        assertTrue(acl.defaultNeedsAuth());
        assertSame(acl.defaultUser(), acl.authenticate("default", "pw"));
        assertNull(acl.authenticate("default", "other"));
        acl.defaultPassword("");
        assertEquals("on nopass ~* &* +@all", acl.describe(acl.defaultUser()));
        assertSame(acl.defaultUser(), acl.authenticate("default", "anything"));
    }

    @Test
    void theLogGroupsLikeDenialsAndKeepsTheNewestFirst() {
        AclLog log = new AclLog(2);
        log.add(AclLog.Reason.KEY, "toplevel", "x", "u", "c1");
        log.add(AclLog.Reason.COMMAND, "toplevel", "del", "u", "c2");
        log.add(AclLog.Reason.KEY, "toplevel", "x", "u", "c3");
        List<AclLog.Entry> entries = log.newest(10);
        assertEquals(2, entries.size());
        assertEquals(2, entries.get(0).count());
        assertEquals("c3", entries.get(0).clientInfo());
        log.add(AclLog.Reason.AUTH, "toplevel", "AUTH", "v", "c4");
        assertEquals(List.of("AUTH", "x"), log.newest(10).stream().map(AclLog.Entry::object).toList());
    }

    private static Command<?> command(String name) {
        return TABLE.lookup(name);
    }

    private static Arguments args(String words) {
        byte[][] parts = Arrays.stream(words.split(" ")).map(word -> word.getBytes(StandardCharsets.UTF_8))
            .toArray(byte[][]::new);
        byte[] joined = String.join("", words.split(" ")).getBytes(StandardCharsets.UTF_8);
        int[] offsets = new int[parts.length];
        for (int i = 1; i < parts.length; i++) {
            offsets[i] = offsets[i - 1] + parts[i - 1].length;
        }
        return new Arguments() {
            @Override
            public int count() {
                return parts.length;
            }

            @Override
            public byte[] array() {
                return joined;
            }

            @Override
            public int offset(int index) {
                return offsets[index];
            }

            @Override
            public int length(int index) {
                return parts[index].length;
            }
        };
    }
}
