package dev.lacewing.core.pubsub;

import java.nio.charset.StandardCharsets;

/**
 * The three namespaces of Redis pub/sub, each with the words its replies and messages carry:
 * channels (SUBSCRIBE, PUBLISH), patterns (PSUBSCRIBE, matched against PUBLISH's channel) and
 * shard channels (SSUBSCRIBE, SPUBLISH), which only SPUBLISH reaches.
 */
public enum SubscriptionKind {
    CHANNEL("subscribe", "unsubscribe", "message"),
    PATTERN("psubscribe", "punsubscribe", "pmessage"),
    SHARD("ssubscribe", "sunsubscribe", "smessage");

    private final String subscribeReply;
    private final String unsubscribeReply;
    private final byte[] messageType;

    SubscriptionKind(String subscribeReply, String unsubscribeReply, String messageType) {
        this.subscribeReply = subscribeReply;
        this.unsubscribeReply = unsubscribeReply;
        this.messageType = messageType.getBytes(StandardCharsets.US_ASCII);
    }

    /** The first element of a subscribe confirmation: {@code subscribe}, {@code psubscribe}, {@code ssubscribe}. */
    public String subscribeReply() {
        return subscribeReply;
    }

    public String unsubscribeReply() {
        return unsubscribeReply;
    }

    /** The first element of a delivered message: {@code message}, {@code pmessage}, {@code smessage}. */
    byte[] messageType() {
        return messageType;
    }
}
