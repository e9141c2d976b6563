package dev.lacewing.api;

import dev.lacewing.api.storage.Aggregate;

/**
 * A stored sorted set as a command plugin reads it ({@link AggregateType#SORTED_SET}), by rank:
 * members ordered by score, then bytewise, as ZRANGE orders them. Arrays it hands over are copies
 * the caller owns. Thread rule: as {@link Aggregate}, and valid until the keyspace next changes.
 */
public interface SortedSetView extends Aggregate {

    /** The number of members. */
    int size();

    /** The score of a member, or NaN when absent (a stored score is never NaN). */
    double score(byte[] member, int offset, int length);

    default double score(byte[] member) {
        return score(member, 0, member.length);
    }

    /** The 0-based rank of a member, or -1 when absent. */
    int rank(byte[] member, int offset, int length);

    /** A copy of the member at a rank, 0 &lt;= rank &lt; size. */
    byte[] memberAt(int rank);

    /** The score at a rank, 0 &lt;= rank &lt; size. */
    double scoreAt(int rank);
}
