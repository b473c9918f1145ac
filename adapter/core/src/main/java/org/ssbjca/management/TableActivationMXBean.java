package org.ssbjca.management;

import java.util.Date;

/**
 * A table activation (a message-driven bean fed from an application's table), as JMX shows it:
 * {@code org.ssbjca:type=TableActivation,name=Bean@table}. The row counts are read from the table at each call (one
 * statement, without locking).
 */
public interface TableActivationMXBean {

    /** Returns the table, as the activation names it. */
    String getTable();

    /** Returns transactional or leased. */
    String getMode();

    /**
     * Returns the readers, including those still waiting for a thread of the container's work manager ({@link
     * #getWaitingReaders()}).
     */
    int getReaderCount();

    /**
     * Returns of {@link #getReaderCount()}, the readers waiting for a thread of the work manager's long-running pool:
     * they read nothing until one frees (SSBJCA0014).
     */
    int getWaitingReaders();

    /** Returns rows a reader would take now. */
    long getAvailableRows();

    /** Returns rows whose availability time lies ahead. */
    long getWaitingRows();

    /** Returns rows a reader holds a lease on (leased mode). */
    long getLeasedRows();

    /** Returns rows taken {@code maxAttempts} times, no longer taken. */
    long getSetAsideRows();

    /**
     * Returns rows not done whose availability column is NULL: never taken until the application gives them a time (0
     * without an availability column).
     */
    long getUnscheduledRows();

    /** Returns seconds since the oldest available row became available (-1 with none, or no availability column). */
    long getOldestAvailableAgeSeconds();

    /** Returns rows delivered in committed transactions since the activation started. */
    long getDeliveredRows();

    /** Returns deliveries that failed since the activation started. */
    long getFailedDeliveries();

    /** Returns leased rows whose lease ended before their delivery committed. */
    long getLeasesLost();

    /**
     * Returns since when the readers have been failing (the database unreachable, the table missing) with no successful
     * turn in between, or null while they read: what the readiness check reads.
     */
    Date getFailingSince();

    /**
     * Returns since when every delivery has failed with none committed in between (the bean throws on the rows it is
     * given, which wait for their retry), or null while deliveries commit; not read by the readiness check (a bean
     * failing on a row does not make the server unready): see {@link #getLastError()} for the rows and the cause.
     */
    Date getDeliveriesFailingSince();

    /** Returns the latest failure: of a reader's turn, or of a delivery (its rows, how often since when, the cause). */
    String getLastError();

    /**
     * Returns the circuit breaker's state: CLOSED (readers deliver), OPEN (readers paused after {@code
     * breakerThreshold} failed deliveries in a row) or PROBING (one reader delivers).
     */
    String getBreakerState();

    /** Returns whether the circuit breaker holds the readers (OPEN or PROBING). */
    boolean isBreakerOpen();

    /** Returns when the circuit breaker last opened, or null if it never did. */
    Date getBreakerOpenedAt();

    /** Returns when the open circuit breaker's next probe is due, or null while it is closed. */
    Date getBreakerNextProbe();

    /** Returns how many times a run of failed deliveries opened the circuit breaker. */
    long getBreakerTrips();

    /**
     * Returns how many readers the open circuit breaker holds before their next taking of rows (all but a probing one
     * once the deliveries in flight as it opened are done); 0 while it is closed.
     */
    int getBreakerParkedReaders();

    /**
     * Gives the rows set aside another round of attempts (attempts back to 0, no lease).
     *
     * @return rows given back
     */
    int redeliverSetAside();

    /**
     * Deletes the rows set aside.
     *
     * @return rows deleted
     */
    int purgeSetAside();
}
