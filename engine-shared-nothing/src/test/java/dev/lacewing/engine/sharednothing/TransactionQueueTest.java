package dev.lacewing.engine.sharednothing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.Invocation;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One shard's grants: in arrival order per key, whole-shard claims after and before everything. */
class TransactionQueueTest {

    private final List<Transaction> granted = new ArrayList<>();
    private final List<Runnable> afterIo = new ArrayList<>();
    private final List<Runnable> atPassEnd = new ArrayList<>();
    private final TransactionQueue queue = new TransactionQueue(0, (transaction, shard) -> granted.add(transaction),
        afterIo::add, atPassEnd::add);

    private static Transaction claiming(String... keys) {
        long[] intents = new long[keys.length];
        for (int i = 0; i < keys.length; i++) {
            byte[] key = keys[i].getBytes(StandardCharsets.UTF_8);
            intents[i] = TransactionQueue.intent(key, 0, key.length);
        }
        return new Transaction(Transaction.Kind.SPLIT, null, null, new int[] {0}, null, new long[][] {intents});
    }

    private static Transaction whole() {
        return new Transaction(Transaction.Kind.WHOLE, null, null, new int[] {0}, null, null);
    }

    private void arrive(Transaction... transactions) {
        for (Transaction transaction : transactions) {
            queue.arrive(transaction);
        }
        queue.drain.run();
    }

    @Test
    void partsOverDisjointKeysAreGrantedAtOnce() {
        Transaction first = claiming("a");
        Transaction second = claiming("b");
        arrive(first, second);
        assertEquals(List.of(first, second), granted);
    }

    @Test
    void aPartWaitsForAnEarlierClaimOfItsKeyAndIsGrantedOnItsRelease() {
        Transaction first = claiming("a", "b");
        Transaction second = claiming("b");
        arrive(first, second);
        assertEquals(List.of(first), granted);
        queue.release(first);
        assertEquals(List.of(first, second), granted);
    }

    /**
     * A later part never overtakes an earlier waiting one on a key they share: were it granted c
     * here while the earlier waits, another shard could grant them the other way round.
     */
    @Test
    void aLaterPartDoesNotOvertakeAnEarlierWaitingOneOnASharedKey() {
        Transaction first = claiming("a");
        Transaction waiting = claiming("a", "c");
        Transaction later = claiming("c");
        Transaction unrelated = claiming("d");
        arrive(first, waiting, later, unrelated);
        assertEquals(List.of(first, unrelated), granted);
        queue.release(first);
        assertEquals(List.of(first, unrelated, waiting), granted);
        queue.release(waiting);
        assertEquals(List.of(first, unrelated, waiting, later), granted);
    }

    /** A release that leaves a part heading one of its lines grants it only once it heads them all. */
    @Test
    void aPartWaitingOnTwoKeysIsGrantedWhenBothAreReleased() {
        Transaction onA = claiming("a");
        Transaction onB = claiming("b");
        Transaction onBoth = claiming("a", "b");
        arrive(onA, onB, onBoth);
        assertEquals(List.of(onA, onB), granted);
        queue.release(onA);
        assertEquals(List.of(onA, onB), granted);
        queue.release(onB);
        assertEquals(List.of(onA, onB, onBoth), granted);
    }

    /** After a whole-shard claim ends, every part it held back is granted, not just new heads of lines. */
    @Test
    void partsHeldBackByAWholeClaimAreGrantedWhenItEnds() {
        Transaction all = whole();
        Transaction onA = claiming("a");
        Transaction onB = claiming("b");
        arrive(all, onA, onB);
        assertEquals(List.of(all), granted);
        queue.release(all);
        assertEquals(List.of(all, onA, onB), granted);
    }

    /** A key's line grows past one claimant and shrinks back, granting each in turn. */
    @Test
    void claimantsOfOneKeyAreGrantedOneAfterAnotherInArrivalOrder() {
        Transaction first = claiming("a");
        Transaction second = claiming("a", "b");
        Transaction third = claiming("a");
        arrive(first, second, third);
        assertEquals(List.of(first), granted);
        queue.release(first);
        assertEquals(List.of(first, second), granted);
        assertFalse(queue.free(command("b")));
        queue.release(second);
        assertEquals(List.of(first, second, third), granted);
        assertTrue(queue.free(command("b")));
        queue.release(third);
        assertTrue(queue.free(command("a")));
    }

    /** MSET a 1 a 2 claims a twice; its release ends both claims, and a later claimant follows it. */
    @Test
    void aPartNamingAKeyTwiceHoldsItUntilReleased() {
        Transaction twice = claiming("a", "a");
        Transaction later = claiming("a");
        arrive(twice, later);
        assertEquals(List.of(twice), granted);
        queue.release(twice);
        assertEquals(List.of(twice, later), granted);
        queue.release(later);
        assertTrue(queue.free(command("a")));
    }

    @Test
    void aWholeShardClaimWaitsForEverythingEarlierAndHoldsBackEverythingLater() {
        Transaction first = claiming("a");
        Transaction all = whole();
        Transaction later = claiming("b");
        arrive(first, all, later);
        assertEquals(List.of(first), granted);
        assertTrue(queue.claimedWhole());
        queue.release(first);
        assertEquals(List.of(first, all), granted);
        queue.release(all);
        assertEquals(List.of(first, all, later), granted);
        assertFalse(queue.claimedWhole());
    }

    @Test
    void aCommandOutsideTheQueueRunsAtOnceUnlessItsKeysAreClaimed() {
        assertTrue(queue.free(command("a")));
        Transaction holding = claiming("a");
        arrive(holding);
        assertFalse(queue.free(command("a")));
        assertTrue(queue.free(command("b")));
        arrive(whole());
        assertFalse(queue.free(command("b")));
    }

    @Test
    void aWaitingLocalCommandIsGrantedAfterTheTransactionsBeforeIt() {
        Transaction holding = claiming("a");
        arrive(holding);
        Transaction local = new Transaction(Transaction.Kind.LOCAL, command("a"), null, new int[] {0}, null,
            claiming("a").intents);
        queue.enqueueLocal(local);
        assertEquals(List.of(holding), granted);
        queue.release(holding);
        assertEquals(List.of(holding, local), granted);
    }

    /**
     * Past a pass's budget, granted parts wait for the shard's I/O, in order, holding their keys;
     * a part granted meanwhile goes behind them.
     */
    @Test
    void partsPastAPassesBudgetStartAfterTheIoInGrantOrder() {
        List<Transaction> parts = new ArrayList<>();
        for (int i = 0; i < TransactionQueue.PARTS_PER_PASS + 2; i++) {
            parts.add(claiming("k" + i));
        }
        arrive(parts.toArray(new Transaction[0]));
        assertEquals(parts.subList(0, TransactionQueue.PARTS_PER_PASS), granted);
        assertEquals(1, afterIo.size(), "one start after the I/O is queued");
        assertFalse(queue.free(command("k" + TransactionQueue.PARTS_PER_PASS)), "a part left for later keeps its key");

        Transaction later = claiming("other");
        arrive(later);
        assertEquals(TransactionQueue.PARTS_PER_PASS, granted.size(), "nothing overtakes the parts left for later");
        assertEquals(1, afterIo.size());

        atPassEnd.remove(0).run();
        afterIo.remove(0).run();
        parts.add(later);
        assertEquals(parts, granted);
        assertTrue(afterIo.isEmpty());
    }

    /**
     * The budget is per pass of the loop: take-ins of one pass share it, and the pass's end (one
     * task, asked for by its first start) gives the next pass a whole budget, so parts spread over
     * passes start at once, none left for after the I/O.
     */
    @Test
    void theBudgetIsCountedPerPassAndRenewedAtThePassesEnd() {
        for (int i = 0; i < TransactionQueue.PARTS_PER_PASS; i++) {
            arrive(claiming("k" + i));
        }
        assertEquals(TransactionQueue.PARTS_PER_PASS, granted.size());
        assertTrue(afterIo.isEmpty());
        assertEquals(1, atPassEnd.size(), "one pass-end task for the whole pass");
        arrive(claiming("over the budget"));
        assertEquals(TransactionQueue.PARTS_PER_PASS, granted.size(), "the same pass's ninth start waits");
        assertEquals(1, afterIo.size());

        atPassEnd.remove(0).run();
        afterIo.remove(0).run();
        assertEquals(TransactionQueue.PARTS_PER_PASS + 1, granted.size());
        atPassEnd.remove(0).run();
        for (int pass = 0; pass < 3; pass++) {
            for (int i = 0; i < TransactionQueue.PARTS_PER_PASS; i++) {
                arrive(claiming("pass " + pass + " " + i));
            }
            atPassEnd.remove(0).run();
        }
        assertEquals(4 * TransactionQueue.PARTS_PER_PASS + 1, granted.size(), "a whole budget in every pass");
        assertTrue(afterIo.isEmpty(), "nothing left for after the I/O");
        assertTrue(atPassEnd.isEmpty());
    }

    /**
     * A take-in within the dispatch of the thread's own connection starts what it makes ready at
     * once, past a spent budget (the parts left for after the I/O first, in grant order), and spends
     * none of it.
     */
    @Test
    void aTakeInWithinADispatchIsNotHeldByTheBudget() {
        List<Transaction> parts = new ArrayList<>();
        for (int i = 0; i < TransactionQueue.PARTS_PER_PASS + 1; i++) {
            parts.add(claiming("k" + i));
        }
        arrive(parts.toArray(new Transaction[0]));
        assertEquals(TransactionQueue.PARTS_PER_PASS, granted.size());

        Transaction dispatched = claiming("dispatched");
        queue.arrive(dispatched);
        queue.takeInDispatched();
        parts.add(dispatched);
        assertEquals(parts, granted);

        afterIo.remove(0).run();
        assertEquals(parts, granted, "the start left for after the I/O found nothing to start");
    }

    /** GET key: one key, argument 1. */
    private static Invocation command(String key) {
        byte[] bytes = ("get" + key).getBytes(StandardCharsets.UTF_8);
        Arguments arguments = new Arguments() {
            @Override
            public int count() {
                return 2;
            }

            @Override
            public byte[] array() {
                return bytes;
            }

            @Override
            public int offset(int index) {
                return index == 0 ? 0 : 3;
            }

            @Override
            public int length(int index) {
                return index == 0 ? 3 : bytes.length - 3;
            }
        };
        return new Invocation() {
            @Override
            public CommandSpec spec() {
                throw new UnsupportedOperationException();
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
                return 1;
            }

            @Override
            public int keyArgument(int i) {
                return 1;
            }

            @Override
            public void run() {
            }

            @Override
            public void completed() {
            }
        };
    }
}
