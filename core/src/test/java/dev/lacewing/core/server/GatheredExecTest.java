package dev.lacewing.core.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
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

    /**
     * Both sides of the threshold where the written keys go into a map: a queue of {@link
     * KeyMap#LISTED_UP_TO} keys is compared by pairs, one more is hashed, with the same outcome.
     */
    @Test
    void theOutcomeIsTheSameEitherSideOfTheListedThreshold() {
        for (int count : new int[] {KeyMap.LISTED_UP_TO, KeyMap.LISTED_UP_TO + 1}) {
            String[] names = new String[count];
            byte[] roles = new byte[count];
            byte[] expected = new byte[count];
            for (int i = 0; i < count; i++) {
                names[i] = "k" + (i % 5);
                roles[i] = i == 2 || i == 9 ? W : R;
                expected[i] = i % 5 == 2 || i % 5 == 4 ? W : R;
            }
            assertArrayEquals(expected, GatheredExec.widenWritten(keys(names), roles), count + " keys");
        }
    }

    /**
     * Up to the threshold nothing is allocated: many calls over a mixed queue of {@link
     * KeyMap#LISTED_UP_TO} keys allocate under a byte a call on this thread (one map would be
     * over a hundred), a bound with a wide margin rather than a timing.
     */
    @Test
    void aShortMixedQueueAllocatesNothing() {
        String[] names = new String[KeyMap.LISTED_UP_TO];
        byte[] given = new byte[names.length];
        for (int i = 0; i < names.length; i++) {
            names[i] = "key" + (i % 7);
            given[i] = i % 3 == 0 ? W : R;
        }
        ScriptRun.ArgvArguments keys = keys(names);
        byte[] roles = new byte[given.length];
        int calls = 20_000;
        for (int i = 0; i < calls; i++) {
            System.arraycopy(given, 0, roles, 0, given.length);
            GatheredExec.widenWritten(keys, roles);
        }
        long before = allocatedByThisThread();
        for (int i = 0; i < calls; i++) {
            System.arraycopy(given, 0, roles, 0, given.length);
            GatheredExec.widenWritten(keys, roles);
        }
        long allocated = allocatedByThisThread() - before;
        assertTrue(allocated < calls, allocated + " bytes over " + calls + " calls");
        assertEquals(W, roles[7], "key0 is written at index 0, so at 7 too");
    }

    /** HotSpot's count of the bytes this thread allocated (com.sun.management, which core does not read). */
    private static long allocatedByThisThread() {
        try {
            Method allocated = Class.forName("com.sun.management.ThreadMXBean").getMethod("getCurrentThreadAllocatedBytes");
            return (long) allocated.invoke(ManagementFactory.getThreadMXBean());
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("this JVM does not count allocated bytes", e);
        }
    }
}
