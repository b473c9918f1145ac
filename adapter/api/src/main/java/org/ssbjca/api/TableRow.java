package org.ssbjca.api;

import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.Objects;

/**
 * One row a table activation took from an application's own table (a work queue on a plain table, see
 * {@link TableRowListener}): its key, its payload and how many times it was taken.
 */
public final class TableRow {

    private final String table;
    private final Object key;
    private final Object payload;
    private final Integer priority;
    private final LocalDateTime availableAt;
    private final int attempt;
    private final Object leaseToken;

    /**
     * @param table the table as the activation names it
     * @param key the row's key, as the JDBC driver returns the key column
     * @param payload the payload column: a {@code String} (character column) or {@code byte[]} (binary column)
     * @param priority the priority column, or null when the activation has none
     * @param availableAt the availability column, or null
     * @param attempt which attempt this delivery is, from 1
     * @param leaseToken what marks this taking of a leased row (null in transactional mode); the adapter's own
     */
    public TableRow(String table, Object key, Object payload, Integer priority, LocalDateTime availableAt,
            int attempt, Object leaseToken) {
        this.table = Objects.requireNonNull(table, "table");
        this.key = Objects.requireNonNull(key, "key");
        this.payload = payload instanceof byte[] ? ((byte[]) payload).clone() : payload;
        this.priority = priority;
        this.availableAt = availableAt;
        this.attempt = attempt;
        this.leaseToken = leaseToken;
    }

    /** Returns the table, as the activation's {@code table} property names it. */
    public String table() {
        return table;
    }

    /** Returns the row's key (the key column's value as the driver returns it: Long, Integer, UUID, String...). */
    public Object key() {
        return key;
    }

    /** Returns the payload column's value: a String for a character column, a byte[] for a binary one, or null. */
    public Object payload() {
        return payload instanceof byte[] ? ((byte[]) payload).clone() : payload;
    }

    /** Returns the payload as bytes (a character payload in UTF-8), or null. */
    public byte[] payloadBytes() {
        if (payload == null) {
            return null;
        }
        return payload instanceof byte[] ? ((byte[]) payload).clone()
                : payload.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Returns the payload as text (a binary payload read as UTF-8), or null. */
    public String payloadText() {
        if (payload == null) {
            return null;
        }
        return payload instanceof byte[] ? new String((byte[]) payload, StandardCharsets.UTF_8) : payload.toString();
    }

    /** Returns the priority column's value, or null when the activation names none. */
    public Integer priority() {
        return priority;
    }

    /** Returns the availability column's value, or null when the activation names none. */
    public LocalDateTime availableAt() {
        return availableAt;
    }

    /**
     * Returns which attempt this delivery is, from 1: the attempts column after this taking counted it; 1 when the
     * activation has no attempts column. A delivery that failed on another row of the batch (the bean threw there) does
     * not count for this row, which comes again with the same number.
     */
    public int attempt() {
        return attempt;
    }

    /** Returns the adapter's mark of this taking of a leased row; null in transactional mode. */
    public Object leaseToken() {
        return leaseToken;
    }

    @Override
    public String toString() {
        return "row " + key + " of " + table + " (attempt " + attempt + ")";
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof TableRow)) {
            return false;
        }
        TableRow r = (TableRow) o;
        return table.equals(r.table) && key.equals(r.key) && attempt == r.attempt
                && Objects.equals(leaseToken, r.leaseToken)
                && ((payload instanceof byte[] && r.payload instanceof byte[])
                        ? Arrays.equals((byte[]) payload, (byte[]) r.payload) : Objects.equals(payload, r.payload));
    }

    @Override
    public int hashCode() {
        return Objects.hash(table, key, attempt);
    }
}
