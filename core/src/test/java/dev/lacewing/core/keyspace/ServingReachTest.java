package dev.lacewing.core.keyspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.Invocation;
import dev.lacewing.core.command.FakeCommandContext;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The movers index of {@link BlockedKeys} (waiters that push to a destination) and
 * {@link PartitionedKeyspace#addServingReach}, which engines use to take, with a command's keys, the
 * partitions a woken BLMOVE chain may reach.
 */
class ServingReachTest {

    private static final int PARTITIONS = 4;

    private final PartitionedKeyspace keyspace = new PartitionedKeyspace(PARTITIONS, 16);

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** A key of {@code partition} of the four. */
    private static byte[] keyOn(String name, int partition) {
        for (int i = 0; i < 1000; i++) {
            byte[] key = bytes(name + ":" + i);
            if (Slots.partitionOf(key, 0, key.length, PARTITIONS) == partition) {
                return key;
            }
        }
        throw new IllegalStateException("no key on partition " + partition);
    }

    private record Waiter(byte[] destination, boolean destinationElsewhere) implements BlockedKeys.Entry {
    }

    /** Registers a client waiting on {@code source} in database 0, moving to {@code destination} when given. */
    private Waiter block(byte[] source, byte[] destination) {
        boolean elsewhere = destination != null && Slots.partitionOf(source, 0, source.length, PARTITIONS)
            != Slots.partitionOf(destination, 0, destination.length, PARTITIONS);
        Waiter waiter = new Waiter(destination, elsewhere);
        registry(source).add(0, source, 0, source.length, waiter);
        return waiter;
    }

    private BlockedKeys registry(byte[] key) {
        return keyspace.partition(keyspace.partitionOf(key, 0, key.length)).blockedKeys();
    }

    private static List<byte[]> destinations(BlockedKeys registry, byte[] key) {
        List<byte[]> found = new ArrayList<>();
        registry.destinations(key, 0, key.length, found::add);
        return found;
    }

    /** A command whose arguments are {@code keys}, every one of them a key. */
    private static Invocation over(byte[]... keys) {
        Arguments arguments = FakeCommandContext.arguments(keys);
        return new Invocation() {
            @Override
            public CommandSpec spec() {
                throw new UnsupportedOperationException("the reach reads keys only");
            }

            @Override
            public Arguments arguments() {
                return arguments;
            }

            @Override
            public int database() {
                return 0;
            }

            @Override
            public int homeWorker() {
                return 0;
            }

            @Override
            public int keyCount() {
                return keys.length;
            }

            @Override
            public int keyArgument(int i) {
                return i;
            }

            @Override
            public void run() {
                throw new UnsupportedOperationException("the reach never runs a command");
            }

            @Override
            public void completed() {
                throw new UnsupportedOperationException("the reach never runs a command");
            }
        };
    }

    @Test
    void onlyMoversToAnotherPartitionMakeServingLeaveIt() {
        byte[] source = keyOn("source", 0);
        block(source, null);
        block(source, keyOn("same", 0));
        assertFalse(keyspace.servingMayLeave(0), "BLPOP and a same-partition BLMOVE stay");
        assertEquals(1, destinations(registry(source), source).size());
        Waiter away = block(source, keyOn("away", 2));
        assertTrue(keyspace.servingMayLeave(0));
        assertFalse(keyspace.servingMayLeave(2), "the count is the waited key's partition's");
        registry(source).remove(0, source, 0, source.length, away);
        assertFalse(keyspace.servingMayLeave(0), "removal forgets it");
    }

    @Test
    void servingThroughTheWaitersIteratorForgetsTheMover() {
        byte[] source = keyOn("source", 1);
        byte[] destination = keyOn("destination", 3);
        block(source, destination);
        Iterator<BlockedKeys.Entry> waiters = registry(source).waiters(0, source);
        waiters.next();
        waiters.remove();
        assertFalse(keyspace.servingMayLeave(1));
        assertTrue(destinations(registry(source), source).isEmpty());
        registry(source).dropIfEmpty(0, source);
        assertNull(registry(source).waiters(0, source));
    }

    @Test
    void theReachFollowsAChainOnePartitionOutsideTheHeldOnesAtATime() {
        byte[] a = keyOn("a", 0);
        byte[] b = keyOn("b", 0);
        byte[] c = keyOn("c", 1);
        byte[] d = keyOn("d", 2);
        block(a, b);
        block(b, c);
        block(c, d);
        BitSet held = new BitSet();
        held.set(0);
        Invocation push = over(a);
        assertTrue(keyspace.addServingReach(push, held), "a -> b stays, b -> c leaves for partition 1");
        assertEquals(BitSet.valueOf(new long[] {0b011}), held);
        assertTrue(keyspace.addServingReach(push, held), "with 1 held, c -> d leads to partition 2");
        assertEquals(BitSet.valueOf(new long[] {0b111}), held);
        assertFalse(keyspace.addServingReach(push, held), "closed: nothing waits on d");
        BitSet unrelated = new BitSet();
        unrelated.set(0);
        assertFalse(keyspace.addServingReach(over(keyOn("other", 0), keyOn("more", 0)), unrelated),
            "a key no mover waits on reaches nothing");
    }

    @Test
    void aCycleOfMoversEnds() {
        byte[] a = keyOn("a", 0);
        byte[] b = keyOn("b", 3);
        block(a, b);
        block(b, a);
        BitSet held = new BitSet();
        held.set(0);
        Invocation push = over(a);
        assertTrue(keyspace.addServingReach(push, held));
        assertFalse(keyspace.addServingReach(push, held));
        assertEquals(BitSet.valueOf(new long[] {0b1001}), held);
    }
}
