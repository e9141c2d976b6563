package dev.lacewing.api;

/**
 * One command handed to a storage engine: what it touches and how to run it. Created by the
 * server on the connection's thread.
 */
public interface Invocation {

    CommandSpec spec();

    Arguments arguments();

    /** The database the connection has selected. */
    int database();

    /** The worker (I/O thread index) the connection lives on. */
    int homeWorker();

    /**
     * Where this request runs: its spec's scope for these arguments ({@link CommandSpec#scope(Arguments)}),
     * so a SORT with BY/GET patterns gets the whole keyspace while a plain SORT gets its key.
     */
    default KeyScope scope() {
        return spec().scope(arguments());
    }

    /** Number of keys the command names. */
    int keyCount();

    /** The argument index of key {@code i}. */
    int keyArgument(int i);

    /**
     * Runs the command body. The engine calls it exactly once, with exclusive access to the keys
     * (or the whole keyspace for {@link KeyScope#ALL}), on any thread.
     */
    void run();

    /** Called by the engine after {@link #run()} finished on another thread; resumes the connection. */
    void completed();

    /**
     * An object the engine keeps with this invocation's connection from one request to the next
     * (its task for a hop to another thread, so that a hop allocates nothing); null until the engine
     * sets one. Read and set on the connection's thread, while no request of it is away. An
     * invocation made for one request keeps nothing: the defaults.
     */
    default Object engineState() {
        return null;
    }

    /** Keeps {@code state} for {@link #engineState()}; the default drops it. */
    default void engineState(Object state) {
    }

    /**
     * Lets an engine that ran this invocation on another thread go on there with the connection's
     * next pipelined request, instead of hopping back and out again. Called after {@link #run()},
     * on that thread. True when the next request is fully buffered, is a command of
     * {@link KeyScope#KEYS} naming at least one key, and passed every check the connection makes:
     * it is then the current invocation, and the engine either runs it or, when its keys may not
     * run there, calls {@link #completed()} without running it, and the connection dispatches it
     * again on its own thread. False leaves the rest of the pipeline to the connection.
     */
    default boolean advance() {
        return false;
    }

    /**
     * This request as independent parts, one per group of its keys, or null when it must run whole.
     * A command splits when Redis's command table gives it {@code request_policy:multi_shard} and a
     * response policy the server can assemble (MGET's values in key order, DEL's sum, MSET's OK),
     * and the request is well formed: each part is the same command over some of the keys, and no
     * part sees another's. An engine that runs the parts holding each part's keys until every part
     * ran keeps the command atomic. Called on the connection's thread, before anything runs.
     */
    default Split split() {
        return null;
    }

    /** The parts of a split request ({@link #split()}). */
    interface Split {

        /**
         * Runs the part over keys {@code keys} (indexes below {@link #keyCount()}, ascending), on a
         * thread that holds them, and returns its reply for {@link #join}. Parts may run at once on
         * different threads.
         */
        Object runPart(int[] keys);

        /**
         * Whether the parts run again, each over the same keys, before the join: called once every
         * part of a round ran, on the thread that ran the last, with their replies; the next
         * round's replies replace them. The engine holds every part's keys across rounds, so a
         * two-phase command (MSETNX: round one checks its keys, the decision here, round two sets
         * them) stays atomic. One round unless the split says otherwise.
         */
        default boolean another(Object[] replies) {
            return false;
        }

        /**
         * Whether each part's claims may end as soon as it ran, before the others ran and the
         * join: true only for a split of one round whose parts write nothing (MGET, EXISTS). A
         * writer ordered after it on a key it read waits for it only there, and it still waits
         * for every writer ordered before it on the keys it has yet to read, so what it reads is
         * one state of the global order. False unless the split says otherwise.
         */
        default boolean releasesEachPart() {
            return false;
        }

        /**
         * The engine's pick for a round that runs on one part of the split's choosing (a gathered
         * EXEC's run): the part over {@code keys}, whose shard is not the calling thread's. The
         * calling thread's shard takes its part in within the dispatch, so another shard ends the
         * first round; a lone round there then runs where that round ended, with no hand-over. Asked
         * at most once, before the first round, on the calling thread. Nothing unless the split
         * says otherwise.
         */
        default void preferLonePart(int[] keys) {
        }

        /**
         * Whether the part over {@code keys} runs in the round {@link #another} just asked for:
         * asked once per part, on the thread that ended the round before. A part left out replies
         * null and its thread is not woken, so a round with work on one shard costs one hand-over
         * at most. Every part runs unless the split says otherwise.
         */
        default boolean runsPart(int[] keys) {
            return true;
        }

        /**
         * Whether the command must run whole after all, instead of the join: asked once no round
         * follows, on the thread that ran the last part. True only when the parts found something
         * only a thread holding every involved shard may do (serving a client blocked to move an
         * element to another shard), and left the keys as they were: the engine gives back the
         * claims and runs the command as it runs one that does not split. False unless the split
         * says otherwise.
         */
        default boolean whole(Object[] replies) {
            return false;
        }

        /**
         * Writes the command's one reply from every part's in the last round, each with the keys it
         * ran over. Called once, after every part ran, on the thread that ran the last; {@link #completed()} follows.
         */
        void join(int[][] keys, Object[] replies);

        /**
         * Called for each part on a thread that holds its keys, after the join (or before the
         * command runs whole instead), just before that part's claims are released: the last
         * chance to change its keys unseen (a part puts back what it took out of its shard). It
         * may run after {@link #completed()}, so it reads nothing of the connection's. Nothing
         * unless the split says otherwise.
         */
        default void settle(int[] keys) {
        }
    }
}
