package dev.lacewing.core.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Which keys of an EXEC's queue are taken out of their shards, rather than copied. */
class GatheredExecTest {

    private static final byte W = GatheredKeyspace.WRITTEN;
    private static final byte R = GatheredKeyspace.READ;

    /** The queue's keys after the command name, each at argument i + 1 as the queue lists them. */
    private static ScriptRun.ArgvArguments keys(String... names) {
        byte[][] argv = new byte[names.length + 1][];
        argv[0] = "exec".getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < names.length; i++) {
            argv[i + 1] = names[i].getBytes(StandardCharsets.UTF_8);
        }
        return new ScriptRun.ArgvArguments(argv);
    }

    @Test
    void aKeyWrittenAnywhereInAShortQueueIsWrittenWhereverItIsNamed() {
        byte[] roles = GatheredExec.widenWritten(keys("a", "b", "a", "ab", "b"), new byte[] {R, W, W, R, R});
        assertArrayEquals(new byte[] {W, W, W, R, W}, roles);
    }

    /** The roles array may be longer than the queue's keys (the key list's own): only the keys' roles change. */
    @Test
    void rolesPastTheLastKeyAreLeftAlone() {
        byte[] roles = {R, W, R, R, R};
        assertArrayEquals(new byte[] {W, W, R, R, R}, GatheredExec.widenWritten(keys("a", "a", "b"), roles));
        byte[] allWritten = {W, W, R};
        assertArrayEquals(new byte[] {W, W, R}, GatheredExec.widenWritten(keys("a", "b"), allWritten));
    }

    @Test
    void aKeyWrittenAnywhereInALongQueueIsWrittenWhereverItIsNamed() {
        String[] names = new String[40];
        byte[] roles = new byte[40];
        byte[] expected = new byte[40];
        for (int i = 0; i < names.length; i++) {
            names[i] = "k" + (i % 10);
            roles[i] = i == 13 || i == 37 ? W : R;
            expected[i] = i % 10 == 3 || i % 10 == 7 ? W : R;
        }
        assertArrayEquals(expected, GatheredExec.widenWritten(keys(names), roles));
    }
}
