package dev.lacewing.core.server;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandContext;
import dev.lacewing.api.CommandDetails;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.Keyspace;
import dev.lacewing.core.keyspace.Database;
import dev.lacewing.core.keyspace.ThreadChanges;
import dev.lacewing.core.keyspace.WatchedKeys;
import dev.lacewing.core.tracking.Tracking;
import java.util.ArrayList;
import java.util.List;

/**
 * One client's WATCH (Redis's watched_keys of a client): its keys, registered in their partitions'
 * {@link WatchedKeys}, and the flag any writer of one of them sets. The keyspace flags a key's
 * watchers where a command changes it ({@code Database}'s stores, removals, in-place changes and
 * expiry changes), so a write that changed nothing leaves them alone, as Redis's signalModifiedKey
 * does; so do serving a blocked client ({@link #served}), FLUSHDB/FLUSHALL, SWAPDB and eviction, and
 * a key whose time passed since WATCH counts as changed at EXEC ({@link #changed}). The write
 * command hook ({@link #written}) serves client-side caching ({@link Tracking}): the keys a tracking
 * client's read-only command read are remembered, and written keys invalidated, with no cost but a
 * check while nobody tracks.
 *
 * <p>Thread rule: {@link #keys} belongs to the owning connection's running command; {@code dirty}
 * is set by whichever thread writes a watched key, {@code released} by the owner.
 */
final class Watch implements WatchedKeys.Watcher {

    /** A watched key and the time it was to expire when watched (Redis's watchedKey.expired), or a negative. */
    record Watched(byte[] key, long expireAt) {
    }

    final List<Watched> keys = new ArrayList<>();
    private volatile boolean dirty;
    volatile boolean released;

    @Override
    public boolean watching() {
        return !released && !dirty;
    }

    @Override
    public void touched() {
        dirty = true;
    }

    /**
     * Redis's isWatchedKeyExpired as well: a key whose time passed since WATCH changed, even
     * where nothing deleted it yet. Called with the keys granted.
     */
    boolean changed(long now) {
        if (dirty) {
            return true;
        }
        for (Watched watched : keys) {
            if (watched.expireAt > 0 && watched.expireAt <= now) {
                return true;
            }
        }
        return false;
    }

    /**
     * The database the command ran in, itself: a read-only command sees it through the lookups
     * that count keyspace hits and misses ({@link ReadLookups}).
     */
    private static Keyspace database(CommandContext ctx) {
        Keyspace keyspace = ctx.keyspace();
        return keyspace instanceof ReadLookups lookups ? lookups.target() : keyspace;
    }

    /**
     * A command ran: when it writes, its keys' tracking clients are invalidated (Redis's
     * signalModifiedKey), FLUSHDB and FLUSHALL invalidating every tracking client; when it only reads,
     * a tracking client's keys are remembered (Redis's trackingRememberKeys). Called by the thread
     * that ran it, still holding its keys, with {@code changesBefore}, its {@link ThreadChanges}
     * count before the command ran. A write that changed nothing (an error, SET NX on an existing
     * key, DEL of a missing one) invalidates nothing, as Redis signals only modified keys; one that
     * changed some of its keys invalidates all of them (DEL of an existing and a missing key).
     * Watchers are flagged by the keyspace itself, only where the command changed a key.
     */
    static void written(CommandSpec spec, Arguments args, CoreContext ctx, long changesBefore) {
        Tracking tracking = ctx.server().tracking();
        if (!tracking.active() || !(database(ctx) instanceof Database database)) {
            return;
        }
        if (!spec.has(CommandFlag.WRITE)) {
            if (spec.has(CommandFlag.READONLY)) {
                tracking.read(spec, args, ctx.connection(), database);
            }
            return;
        }
        boolean flush = spec.name().equals("flushall") || spec.name().equals("flushdb");
        if (!flush && ThreadChanges.count() == changesBefore) {
            return;
        }
        Tracking.Writes writes = tracking.writes(ctx.connection());
        int copyDatabase = spec.name().equals("copy") ? copyDatabaseArgument(args) : -1;
        for (int i = 0, keys = spec.keyCount(args); i < keys; i++) {
            int argument = spec.keyArgument(args, i);
            if ((copyDatabase < 0 || argument != 2) && !onlyRead(spec, args, argument)) {
                writes.written(database, args.array(), args.offset(argument), args.length(argument));
            }
        }
        if (copyDatabase >= 0) {
            invalidateIn(ctx, writes, args, copyDatabase, 2);
        } else if (spec.name().equals("move")) {
            invalidateIn(ctx, writes, args, 2, 1);
        }
        if (flush) {
            tracking.flushed(ctx.connection());
        }
        writes.done();
    }

    /** A key written: its watchers are flagged and, with {@code writes}, its tracking clients invalidated. */
    private static void modified(Database database, Tracking.Writes writes, byte[] key, int offset, int length) {
        database.touchWatched(key, offset, length);
        if (writes != null) {
            writes.written(database, key, offset, length);
        }
    }

    /**
     * Whether the command's key specs declare the key at {@code argument} only read (Redis's RO flag:
     * SUNIONSTORE's sources), so that the command does not write it. A key a spec does not place for
     * sure counts as written.
     */
    static boolean onlyRead(CommandSpec spec, Arguments args, int argument) {
        boolean read = false;
        for (CommandDetails.KeySpec key : spec.details().keySpecs()) {
            boolean readOnly = key.flags().contains("RO");
            if (!places(key, args, argument)) {
                if (!readOnly && !placesSurely(key)) {
                    return false;
                }
                continue;
            }
            if (!readOnly) {
                return false;
            }
            read = true;
        }
        return read;
    }

    private static boolean placesSurely(CommandDetails.KeySpec key) {
        return !key.beginSearch().type().equals("unknown") && !key.findKeys().type().equals("unknown");
    }

    /** Whether key spec {@code key} finds the key at {@code argument} in the request (Redis's getKeysUsingKeySpecs). */
    private static boolean places(CommandDetails.KeySpec key, Arguments args, int argument) {
        int count = args.count();
        int begin;
        switch (key.beginSearch().type()) {
            case "index" -> begin = key.beginSearch().index();
            case "keyword" -> {
                begin = -1;
                int from = key.beginSearch().startFrom();
                int step = from >= 0 ? 1 : -1;
                for (int i = from >= 0 ? from : count + from; i > 0 && i < count; i += step) {
                    if (args.is(i, key.beginSearch().keyword())) {
                        begin = i + 1;
                        break;
                    }
                }
                if (begin < 0) {
                    return false;
                }
            }
            default -> {
                return false;
            }
        }
        CommandDetails.FindKeys find = key.findKeys();
        int first;
        int last;
        int step = Math.max(1, find.keyStep());
        switch (find.type()) {
            case "range" -> {
                first = begin;
                last = find.lastKey() >= 0 ? begin + find.lastKey() : count + find.lastKey();
            }
            case "keynum" -> {
                int numKeys;
                try {
                    numKeys = Integer.parseInt(args.string(begin + find.keyNumIndex()));
                } catch (RuntimeException e) {
                    return false;
                }
                first = begin + find.firstKey();
                last = first + (numKeys - 1) * step;
            }
            default -> {
                return false;
            }
        }
        return argument >= first && argument <= last && (argument - first) % step == 0;
    }

    /** The argument index of COPY's DB option's value, whose database its destination is in, or -1. */
    private static int copyDatabaseArgument(Arguments args) {
        int found = -1;
        for (int i = 3; i + 1 < args.count(); i++) {
            if (args.is(i, "db")) {
                found = ++i;
            }
        }
        return found;
    }

    /** MOVE's and COPY's key in the database another argument names, when it names one: its tracking clients invalidated. */
    private static void invalidateIn(CoreContext ctx, Tracking.Writes writes, Arguments args, int databaseArgument,
                                     int keyArgument) {
        int index;
        try {
            index = Integer.parseInt(args.string(databaseArgument));
        } catch (NumberFormatException e) {
            return;
        }
        if (index >= 0 && index < ctx.databases()) {
            writes.written(ctx.server().engine().keyspace(index), args.array(), args.offset(keyArgument), args.length(keyArgument));
        }
    }

    /**
     * A blocked client was served from {@code key}: that key and its destination (BLMOVE's), held by
     * the serving thread, were written.
     */
    static void served(CoreContext ctx, byte[] key, byte[] destination) {
        Tracking tracking = ctx.server().tracking();
        boolean tracked = tracking.active();
        if ((!tracked && !WatchedKeys.anyWatched()) || !(database(ctx) instanceof Database database)) {
            return;
        }
        Tracking.Writes writes = tracked ? tracking.writes(null) : null;
        modified(database, writes, key, 0, key.length);
        if (destination != null) {
            modified(database, writes, destination, 0, destination.length);
        }
        if (writes != null) {
            writes.done();
        }
    }
}
