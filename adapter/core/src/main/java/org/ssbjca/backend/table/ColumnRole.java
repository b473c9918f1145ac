package org.ssbjca.backend.table;

/**
 * What a column of a table queue is for, each named by the table activation property that names the column
 * ({@link #property()}, which is also how the role prints, so that a message about a column names its property).
 */
public enum ColumnRole {
    /** Identifies a row (required). */
    KEY("keyColumn"),
    /** Handed to the bean: text or binary (required). */
    PAYLOAD("payloadColumn"),
    /** Rows with the lowest value are taken first. */
    PRIORITY("priorityColumn"),
    /** A timestamp before which a row is not taken. */
    AVAILABLE("availableColumn"),
    /** Rows are taken in its order after priority and availability; the key by default. */
    ORDER("orderColumn"),
    /** A timestamp set when the row is done (rows kept); without it, done rows are deleted. */
    DONE("doneColumn"),
    /** Leased mode: when a reader's lease ends. */
    LEASE("leaseColumn"),
    /** Leased mode: the mark of a taking. */
    MARK("markColumn"),
    /** Counts the takings of a row. */
    ATTEMPTS("attemptsColumn"),
    /** A text column the adapter writes a failed delivery's error to ({@code class: message}). */
    ERROR("errorColumn"),
    /** A timestamp the adapter sets to the database's time whenever it writes the error column. */
    ERROR_TIME("errorTimeColumn");

    private final String property;

    ColumnRole(String property) {
        this.property = property;
    }

    /** Returns the activation property that names the column, such as {@code keyColumn}. */
    public String property() {
        return property;
    }

    /** @return {@link #property()} */
    @Override
    public String toString() {
        return property;
    }
}
