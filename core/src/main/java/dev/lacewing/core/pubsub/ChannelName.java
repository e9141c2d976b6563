package dev.lacewing.core.pubsub;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A channel, shard channel or pattern name: binary-safe bytes with their hash, a key of the
 * {@link PubSub} registry and of a connection's {@link Subscriptions}.
 *
 * <p>Thread rule: immutable; the bytes are a private copy.
 */
public final class ChannelName {

    private final byte[] bytes;
    private final int hash;

    private ChannelName(byte[] bytes) {
        this.bytes = bytes;
        this.hash = Arrays.hashCode(bytes);
    }

    public static ChannelName copyOf(byte[] array, int offset, int length) {
        return new ChannelName(Arrays.copyOfRange(array, offset, offset + length));
    }

    /** A name over bytes the caller made for it and hands over. */
    public static ChannelName wrap(byte[] bytes) {
        return new ChannelName(bytes);
    }

    public static ChannelName of(String text) {
        return new ChannelName(text.getBytes(StandardCharsets.UTF_8));
    }

    /** The name's bytes; callers must not change them. */
    public byte[] bytes() {
        return bytes;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ChannelName name && name.hash == hash && Arrays.equals(name.bytes, bytes);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
