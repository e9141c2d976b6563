package dev.lacewing.storage.tck;

import dev.lacewing.api.storage.Aggregate;
import dev.lacewing.api.storage.AggregateCodec;
import java.util.Arrays;

/**
 * An aggregate for the contract: bytes that stay packed ({@link Aggregate.Packed#HASH_LISTPACK})
 * until {@link #unpack} moves them to the large form, as a hash leaves listpack. {@link #CODEC}
 * turns a packed form back into one. Thread rule: as {@link Aggregate}.
 */
public final class TestAggregate implements Aggregate.Packed {

    /** The codec a storage under test is opened with. */
    public static final AggregateCodec CODEC = (form, bytes) -> {
        if (form != HASH_LISTPACK) {
            throw new IllegalArgumentException("no packed form " + form);
        }
        return new TestAggregate(bytes, true);
    };

    private byte[] bytes;
    private boolean packed;

    public TestAggregate(byte[] bytes, boolean packed) {
        this.bytes = bytes.clone();
        this.packed = packed;
    }

    /** The bytes the value holds. */
    public byte[] bytes() {
        return bytes.clone();
    }

    /** Appends to the value; the caller then reports the change ({@link dev.lacewing.api.storage.Table#modified}). */
    public void append(byte[] more) {
        byte[] grown = Arrays.copyOf(bytes, bytes.length + more.length);
        System.arraycopy(more, 0, grown, bytes.length, more.length);
        bytes = grown;
    }

    /** Leaves the packed form for good. */
    public void unpack() {
        packed = false;
    }

    @Override
    public String typeName() {
        return "hash";
    }

    @Override
    public String encoding() {
        return packed ? "listpack" : "hashtable";
    }

    @Override
    public TestAggregate copy() {
        return new TestAggregate(bytes, packed);
    }

    @Override
    public long memoryUsage() {
        return 32 + bytes.length;
    }

    @Override
    public int packedForm() {
        return packed ? HASH_LISTPACK : 0;
    }

    @Override
    public byte[] packedArray() {
        return bytes;
    }

    @Override
    public int packedLength() {
        return bytes.length;
    }
}
