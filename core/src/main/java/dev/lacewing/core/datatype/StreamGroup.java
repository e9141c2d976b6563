package dev.lacewing.core.datatype;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * A consumer group of a stream (Redis's streamCG): the last ID delivered, the entries read, the
 * pending entries list (delivered, not yet acknowledged) and the consumers, each with its own
 * pending entries. Consumers are ordered by name bytes, as Redis's radix tree orders them.
 *
 * <p>{@link #memoryUsage()} counts the group's objects as they come and go. Thread rule: as its
 * {@link StreamValue}.
 */
public final class StreamGroup {

    /** Object header and fields, and its two TreeMaps. */
    private static final long GROUP_BYTES = 48 + 2 * 48;
    /** A consumer: its object, its TreeMap and name array headers, and its entry in the group's map. */
    private static final long CONSUMER_BYTES = 32 + 48 + 16 + 40;
    /** A pending entry: its object, its ID, and its entries in the group's and the consumer's maps. */
    private static final long PENDING_BYTES = 32 + 32 + 2 * 40;

    /** A consumer (streamConsumer). */
    public static final class Consumer {
        private final byte[] name;
        private long seenTime;
        private final TreeMap<StreamId, Pending> pending = new TreeMap<>();

        private Consumer(byte[] name, long seenTime) {
            this.name = name;
            this.seenTime = seenTime;
        }

        public byte[] name() {
            return name;
        }

        public long seenTime() {
            return seenTime;
        }

        public void seen(long now) {
            seenTime = now;
        }

        public TreeMap<StreamId, Pending> pending() {
            return pending;
        }
    }

    /** A delivered, unacknowledged entry (streamNACK). */
    public static final class Pending {
        private long deliveryTime;
        private long deliveryCount;
        private Consumer consumer;

        public long deliveryTime() {
            return deliveryTime;
        }

        public long deliveryCount() {
            return deliveryCount;
        }

        public Consumer consumer() {
            return consumer;
        }

        /** Delivered once more (XREADGROUP of history). */
        public void redelivered(long now) {
            deliveryTime = now;
            deliveryCount++;
        }
    }

    private StreamId lastId;
    private long entriesRead;
    private final TreeMap<StreamId, Pending> pending = new TreeMap<>();
    private final TreeMap<byte[], Consumer> consumers = new TreeMap<>(Arrays::compareUnsigned);
    private long bytes;

    public StreamGroup(byte[] name, StreamId lastId, long entriesRead) {
        this.lastId = lastId;
        this.entriesRead = entriesRead;
        this.bytes = GROUP_BYTES + name.length;
    }

    public StreamId lastId() {
        return lastId;
    }

    public long entriesRead() {
        return entriesRead;
    }

    /** XGROUP SETID. */
    public void setLastId(StreamId id, long newEntriesRead) {
        lastId = id;
        entriesRead = newEntriesRead;
    }

    public TreeMap<StreamId, Pending> pending() {
        return pending;
    }

    public Map<byte[], Consumer> consumers() {
        return consumers;
    }

    public long memoryUsage() {
        return bytes;
    }

    public Consumer consumer(byte[] name) {
        return consumers.get(name);
    }

    /** The consumer of that name, created when absent; its seen time set to {@code now}. */
    public Consumer consumerSeen(byte[] name, long now) {
        Consumer consumer = consumers.get(name);
        if (consumer == null) {
            consumer = createConsumer(name, now);
        }
        consumer.seen(now);
        return consumer;
    }

    /** XGROUP CREATECONSUMER: null when the name is taken. */
    public Consumer createConsumer(byte[] name, long now) {
        if (consumers.containsKey(name)) {
            return null;
        }
        Consumer consumer = new Consumer(name.clone(), now);
        consumers.put(consumer.name, consumer);
        bytes += CONSUMER_BYTES + name.length;
        return consumer;
    }

    /** XGROUP DELCONSUMER: the count of entries it had pending, which leave the group's list too; -1 when absent. */
    public long deleteConsumer(byte[] name) {
        Consumer consumer = consumers.remove(name);
        if (consumer == null) {
            return -1;
        }
        for (StreamId id : consumer.pending.keySet()) {
            pending.remove(id);
        }
        long count = consumer.pending.size();
        bytes -= CONSUMER_BYTES + name.length + count * PENDING_BYTES;
        return count;
    }

    /**
     * An entry delivered by XREADGROUP {@code >}: the group's last ID moves to it and its entries
     * read to what {@link StreamValue#entriesReadAt} says; unless
     * {@code noAck} it is pending for {@code consumer}, taken from any other consumer it was
     * pending for (after an XGROUP SETID back), with a delivery count of 1.
     */
    public void delivered(StreamId id, Consumer consumer, long now, boolean noAck, long newEntriesRead) {
        lastId = id;
        entriesRead = newEntriesRead;
        if (noAck) {
            return;
        }
        Pending entry = pending.get(id);
        if (entry == null) {
            entry = new Pending();
            pending.put(id, entry);
            bytes += PENDING_BYTES;
        } else {
            entry.consumer.pending.remove(id);
        }
        entry.consumer = consumer;
        entry.deliveryTime = now;
        entry.deliveryCount = 1;
        consumer.pending.put(id, entry);
    }

    /** XACK of one ID: false when it was not pending. */
    public boolean acknowledge(StreamId id) {
        Pending entry = pending.remove(id);
        if (entry == null) {
            return false;
        }
        entry.consumer.pending.remove(id);
        bytes -= PENDING_BYTES;
        return true;
    }

    /**
     * XCLAIM's FORCE: the entry's pending record, created without a consumer and delivered once
     * (streamCreateNACK) when absent.
     */
    public Pending pendingOrCreate(StreamId id) {
        Pending entry = pending.get(id);
        if (entry == null) {
            entry = new Pending();
            entry.deliveryCount = 1;
            pending.put(id, entry);
            bytes += PENDING_BYTES;
        }
        return entry;
    }

    /**
     * XCLAIM and XAUTOCLAIM of one pending entry: it moves to {@code consumer} with that delivery
     * time; its delivery count becomes {@code retryCount} when that is not negative, else grows by
     * one unless {@code justId}.
     */
    public void claim(StreamId id, Pending entry, Consumer consumer, long deliveryTime, long retryCount,
                      boolean justId) {
        if (entry.consumer != consumer && entry.consumer != null) {
            entry.consumer.pending.remove(id);
        }
        entry.deliveryTime = deliveryTime;
        if (retryCount >= 0) {
            entry.deliveryCount = retryCount;
        } else if (!justId) {
            entry.deliveryCount++;
        }
        if (entry.consumer != consumer) {
            consumer.pending.put(id, entry);
            entry.consumer = consumer;
        }
    }

    /** Forgets a pending entry whose stream entry is gone (XCLAIM, XAUTOCLAIM). */
    public void dropPending(StreamId id) {
        Pending entry = pending.remove(id);
        if (entry != null) {
            if (entry.consumer != null) {
                entry.consumer.pending.remove(id);
            }
            bytes -= PENDING_BYTES;
        }
    }

    /** A deep copy, for COPY of its stream. */
    StreamGroup copy(byte[] name) {
        StreamGroup copy = new StreamGroup(name, lastId, entriesRead);
        for (Consumer consumer : consumers.values()) {
            Consumer consumerCopy = copy.createConsumer(consumer.name, consumer.seenTime);
            for (Map.Entry<StreamId, Pending> entry : consumer.pending.entrySet()) {
                Pending pendingCopy = new Pending();
                pendingCopy.consumer = consumerCopy;
                pendingCopy.deliveryTime = entry.getValue().deliveryTime;
                pendingCopy.deliveryCount = entry.getValue().deliveryCount;
                consumerCopy.pending.put(entry.getKey(), pendingCopy);
                copy.pending.put(entry.getKey(), pendingCopy);
                copy.bytes += PENDING_BYTES;
            }
        }
        return copy;
    }
}
