package dev.lacewing.core.server;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.Keyspace;
import dev.lacewing.api.StringEncoding;
import dev.lacewing.api.ValueView;
import dev.lacewing.core.datatype.TypedValue;
import dev.lacewing.core.keyspace.Database;
import dev.lacewing.core.keyspace.ThreadChanges;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * The database as a gathered command's handler sees it on its destination's shard
 * ({@link GatherRequest}, {@link GatheredExec}): keys of that shard go to the database itself;
 * keys of other shards to what their own threads gathered, which the handler reads and changes
 * here, and their threads put back afterwards. No lookup ever reaches another shard's index from
 * this thread. It also holds the two ends both gathers share: a part's hand-over ({@link #gather})
 * and its put-back ({@link #putBack}).
 *
 * <p>Thread rule: filled by the thread ending the gathering round ({@link #join}), then used by
 * the destination's thread while the command runs, then read by each other shard's thread to put
 * its own entries back; the engine's hand-offs between rounds order those accesses, and each
 * entry is put back by the one thread its part runs on.
 */
final class GatheredKeyspace implements Keyspace {

    private static final long NO_KEY = -2;

    /** Key roles: claimed for WATCH only (not moved), only read (copied), or maybe written (taken out). */
    static final byte WATCHED = 0;
    static final byte READ = 1;
    static final byte WRITTEN = 2;

    /** How a gathered command names its keys, for {@link #gather}. */
    interface Keys {
        /** The request the keys are arguments of. */
        Arguments request();

        /** The argument index of key {@code key}. */
        int argument(int key);

        /** {@link #WATCHED}, {@link #READ} or {@link #WRITTEN}. */
        byte role(int key);
    }

    /** One key of another shard: its value as gathered (null when absent), then as the command leaves it. */
    static final class Entry {
        final byte[] key;
        /** The part that gathered it: the first key index of that part, which puts it back. */
        final int part;
        /** Taken out of its shard (a key the command may write): it goes back whatever happens. */
        final boolean taken;
        Object value;
        long expireAt;
        StringEncoding encoding;
        /** Changed by the command: its watchers are flagged when it is put back. */
        boolean changed;
        /** The changes counted for the dirty counter (RENAME's removal of a moved key counts none). */
        long changes;

        Entry(byte[] key, int part, boolean taken, Object value, long expireAt, StringEncoding encoding) {
            this.key = key;
            this.part = part;
            this.taken = taken;
            this.value = value;
            this.expireAt = expireAt;
            this.encoding = encoding;
        }
    }

    /** The gathered entries by key, each key once, in gathering order. */
    private final KeyMap<Entry> entries = new KeyMap<>(4);
    /** Whether a part took keys out of its shard, to put back at the end. */
    private boolean taken;
    private Keyspace local;

    /**
     * Round one on a part's own thread: its keys, each once, as entries (a key the command may
     * write taken out of the shard with its expiry; one it only reads a detached copy; a watched
     * one not at all); null for the destination's part, whose keys stay where they are; TRUE when
     * serving a client blocked on this shard may move an element to another shard, so the
     * command must run whole.
     */
    static Object gather(Database db, int[] part, boolean destinationPart, Keys keys) {
        Arguments request = keys.request();
        byte[] array = request.array();
        int first = keys.argument(part[0]);
        if (db.blockedKeys(array, request.offset(first), request.length(first)).hasMoversElsewhere()) {
            return Boolean.TRUE;
        }
        if (destinationPart) {
            return null;
        }
        List<Entry> entries = new ArrayList<>(part.length);
        for (int key : part) {
            int argument = keys.argument(key);
            int offset = request.offset(argument);
            int length = request.length(argument);
            byte role = keys.role(key);
            if (role == WATCHED || contains(entries, array, offset, length)) {
                continue;
            }
            boolean take = role == WRITTEN;
            long expireAt = db.expireAt(array, offset, length);
            Object value = expireAt == NO_KEY ? null : db.get(array, offset, length);
            StringEncoding encoding = value instanceof byte[] ? db.stringEncoding(array, offset, length)
                : StringEncoding.FROM_BYTES;
            if (value != null) {
                if (take) {
                    db.takeOut(array, offset, length);
                } else if (value instanceof TypedValue typed) {
                    value = typed.copy();
                }
            }
            entries.add(new Entry(Arrays.copyOfRange(array, offset, offset + length), part[0], take, value, expireAt,
                encoding));
        }
        return entries;
    }

    private static boolean contains(List<Entry> entries, byte[] array, int offset, int length) {
        for (Entry entry : entries) {
            if (Arrays.equals(entry.key, 0, entry.key.length, array, offset, offset + length)) {
                return true;
            }
        }
        return false;
    }

    /**
     * After the gathering round, on the thread ending it: every part's entries join the view.
     * True when a part found a mover elsewhere: the command runs whole, and what was taken goes
     * back unchanged.
     */
    @SuppressWarnings("unchecked")
    boolean join(Object[] replies) {
        boolean whole = false;
        for (Object reply : replies) {
            if (reply == Boolean.TRUE) {
                whole = true;
            } else if (reply != null) {
                for (Entry entry : (List<Entry>) reply) {
                    add(entry);
                }
            }
        }
        return whole;
    }

    /** Adds a part's entry unless an earlier part gathered the same key. */
    private void add(Entry entry) {
        if (entries.putIfAbsent(entry.key, 0, entry.key.length, entry) == null) {
            taken |= entry.taken;
        }
    }

    /** The engine's database {@code index} as core's {@code Database}, which every engine's keyspace is. */
    static Database database(ServerState server, int index) {
        return server.engine().keyspace(index);
    }

    /**
     * On the thread of the part whose first key index is {@code part}, at the end: the keys it
     * took stored again as the command left them (or left deleted); those the command changed
     * flag their watchers there; clients blocked on them are served.
     */
    void putBack(int database, int part, ServerState server) {
        if (!taken) {
            return;
        }
        Database db = database(server, database);
        boolean any = false;
        for (int i = 0; i < entries.size(); i++) {
            Entry entry = entries.value(i);
            if (entry.part == part && entry.taken) {
                db.putBack(entry.key, 0, entry.key.length, entry.value, entry.expireAt, entry.encoding, entry.changed,
                    entry.changes);
                entry.value = null;
                entry.changed = false;
                entry.changes = 0;
                any = true;
            }
        }
        if (any) {
            BlockedClient.serveReadyKeys(server);
        }
    }

    /** The gathered entry of a key, or null when the key lives on the destination's shard. */
    Entry entry(byte[] key, int offset, int length) {
        return entries.get(key, offset, length);
    }

    /** Points this view at the destination shard's database for the run. */
    GatheredKeyspace over(Keyspace database) {
        this.local = database;
        return this;
    }

    @Override
    public int index() {
        return local.index();
    }

    @Override
    public Object get(byte[] key, int offset, int length) {
        Entry entry = entry(key, offset, length);
        return entry == null ? local.get(key, offset, length) : entry.value;
    }

    @Override
    public Object peek(byte[] key, int offset, int length) {
        Entry entry = entry(key, offset, length);
        return entry == null ? local.peek(key, offset, length) : entry.value;
    }

    @Override
    public int access(byte[] key, int offset, int length) {
        Entry entry = entry(key, offset, length);
        return entry == null ? local.access(key, offset, length) : -1;
    }

    @Override
    public boolean setAccess(byte[] key, int offset, int length, int access) {
        Entry entry = entry(key, offset, length);
        return entry == null && local.setAccess(key, offset, length, access);
    }

    @Override
    public boolean getValue(byte[] key, int offset, int length, ValueView view) {
        Entry entry = entry(key, offset, length);
        if (entry == null) {
            return local.getValue(key, offset, length, view);
        }
        if (entry.value instanceof byte[] bytes) {
            view.setString(bytes, 0, bytes.length);
        } else if (entry.value != null) {
            view.setObject(entry.value);
        }
        return entry.value != null;
    }

    @Override
    public void modified(byte[] key, int offset, int length, long changes) {
        Entry entry = entry(key, offset, length);
        if (entry == null) {
            local.modified(key, offset, length, changes);
        } else {
            entry.changed = true;
            count(entry, changes);
        }
    }

    /** Counted for a key of the destination's own shard; a gathered key's when it is put back. */
    @Override
    public void changed(byte[] key, int offset, int length, long changes) {
        Entry entry = entry(key, offset, length);
        if (entry == null) {
            local.changed(key, offset, length, changes);
        } else {
            count(entry, changes);
        }
    }

    @Override
    public void edited(byte[] key, int offset, int length, long changes) {
        Entry entry = entry(key, offset, length);
        if (entry == null) {
            local.edited(key, offset, length, changes);
        } else if (changes != 0) {
            entry.changed = true;
            count(entry, changes);
        }
    }

    /** Changes to a gathered key: its shard counts them at the put-back, this thread's command now. */
    private static void count(Entry entry, long changes) {
        entry.changes += changes;
        ThreadChanges.add(changes);
    }

    @Override
    public long expireAt(byte[] key, int offset, int length) {
        Entry entry = entry(key, offset, length);
        if (entry == null) {
            return local.expireAt(key, offset, length);
        }
        return entry.value == null ? NO_KEY : entry.expireAt;
    }

    @Override
    public void put(byte[] key, int offset, int length, Object value, long expireAt, long changes) {
        Entry entry = entry(key, offset, length);
        if (entry == null) {
            local.put(key, offset, length, value, expireAt, changes);
        } else {
            store(entry, value, expireAt, StringEncoding.FROM_BYTES, changes);
        }
    }

    @Override
    public void putString(byte[] key, int offset, int length, byte[] value, int valueOffset, int valueLength,
                          long expireAt) {
        Entry entry = entry(key, offset, length);
        if (entry == null) {
            local.putString(key, offset, length, value, valueOffset, valueLength, expireAt);
        } else {
            store(entry, Arrays.copyOfRange(value, valueOffset, valueOffset + valueLength), expireAt,
                StringEncoding.FROM_BYTES);
        }
    }

    @Override
    public void putKeepExpiry(byte[] key, int offset, int length, Object value) {
        Entry entry = entry(key, offset, length);
        if (entry == null) {
            local.putKeepExpiry(key, offset, length, value);
        } else {
            store(entry, value, entry.value == null ? NO_EXPIRY : entry.expireAt, StringEncoding.FROM_BYTES);
        }
    }

    @Override
    public void putEncoded(byte[] key, int offset, int length, byte[] value, long expireAt, StringEncoding encoding) {
        Entry entry = entry(key, offset, length);
        if (entry == null) {
            local.putEncoded(key, offset, length, value, expireAt, encoding);
        } else {
            store(entry, value, expireAt, encoding);
        }
    }

    @Override
    public void putEncodedKeepExpiry(byte[] key, int offset, int length, byte[] value, StringEncoding encoding) {
        Entry entry = entry(key, offset, length);
        if (entry == null) {
            local.putEncodedKeepExpiry(key, offset, length, value, encoding);
        } else {
            store(entry, value, entry.value == null ? NO_EXPIRY : entry.expireAt, encoding);
        }
    }

    private static void store(Entry entry, Object value, long expireAt, StringEncoding encoding) {
        store(entry, value, expireAt, encoding, 1);
    }

    private static void store(Entry entry, Object value, long expireAt, StringEncoding encoding, long changes) {
        entry.value = value;
        entry.expireAt = expireAt;
        entry.encoding = value instanceof byte[] ? encoding : StringEncoding.FROM_BYTES;
        entry.changed = true;
        count(entry, changes);
    }

    @Override
    public StringEncoding stringEncoding(byte[] key, int offset, int length) {
        Entry entry = entry(key, offset, length);
        if (entry == null) {
            return local.stringEncoding(key, offset, length);
        }
        return entry.value instanceof byte[] ? entry.encoding : StringEncoding.FROM_BYTES;
    }

    /** A gathered string is edited in a copy of its own: its shard gets the result back. */
    @Override
    public boolean editString(byte[] key, int offset, int length, int minLength, ValueView view, long changes) {
        Entry entry = entry(key, offset, length);
        if (entry == null) {
            return local.editString(key, offset, length, minLength, view, changes);
        }
        if (entry.value != null && !(entry.value instanceof byte[])) {
            return false;
        }
        byte[] old = entry.value == null ? new byte[0] : (byte[]) entry.value;
        byte[] edited = Arrays.copyOf(old, Math.max(old.length, minLength));
        boolean changedBefore = entry.changed;
        store(entry, edited, entry.value == null ? NO_EXPIRY : entry.expireAt, StringEncoding.RAW, changes);
        // Only unshared: its watchers are left alone, as a no-op SETBIT leaves them in Redis.
        entry.changed = changedBefore || changes != 0;
        view.setString(edited, 0, edited.length);
        return true;
    }

    @Override
    public long valueMemory(byte[] key, int offset, int length) {
        if (entry(key, offset, length) != null) {
            throw new UnsupportedOperationException("no gathered command asks a value's memory");
        }
        return local.valueMemory(key, offset, length);
    }

    @Override
    public boolean setExpireAt(byte[] key, int offset, int length, long expireAt) {
        Entry entry = entry(key, offset, length);
        if (entry == null) {
            return local.setExpireAt(key, offset, length, expireAt);
        }
        if (entry.value == null) {
            return false;
        }
        entry.expireAt = expireAt;
        entry.changed = true;
        count(entry, 1);
        return true;
    }

    @Override
    public boolean remove(byte[] key, int offset, int length, long changes) {
        Entry entry = entry(key, offset, length);
        if (entry == null) {
            return local.remove(key, offset, length, changes);
        }
        if (entry.value == null) {
            return false;
        }
        entry.value = null;
        entry.changed = true;
        count(entry, changes);
        return true;
    }

    /** A gathered string goes back with the new encoding; nothing changed, nothing counted. */
    @Override
    public void reencode(byte[] key, int offset, int length, byte[] value, StringEncoding encoding) {
        Entry entry = entry(key, offset, length);
        if (entry == null) {
            local.reencode(key, offset, length, value, encoding);
        } else if (entry.value instanceof byte[]) {
            entry.value = value;
            entry.encoding = encoding;
        }
    }

    @Override
    public long size() {
        throw wholeKeyspace();
    }

    @Override
    public long expiringSize() {
        throw wholeKeyspace();
    }

    @Override
    public void clear() {
        throw wholeKeyspace();
    }

    @Override
    public long scan(long cursor, int count, Consumer<byte[]> visitor, Consumer<byte[]> expired) {
        throw wholeKeyspace();
    }

    @Override
    public byte[] randomKey() {
        throw wholeKeyspace();
    }

    private static UnsupportedOperationException wholeKeyspace() {
        return new UnsupportedOperationException("a gathered command names its keys");
    }
}
