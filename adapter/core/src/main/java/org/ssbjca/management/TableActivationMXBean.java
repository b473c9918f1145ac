package org.ssbjca.management;

import java.util.Date;
import java.util.List;

/**
 * A table activation (a message-driven bean fed from an application's table), as JMX shows it:
 * {@code org.ssbjca:type=TableActivation,name=Bean@table}. The row counts are read from the table at each call (one
 * statement, without locking).
 */
public interface TableActivationMXBean extends BreakerMXBean {

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
     * Gives the rows set aside another round of attempts (attempts back to 0, no lease).
     *
     * @return rows given back
     */
    int redeliverSetAside();

    /**
     * The rows set aside grouped by failure, as the dead letters are ({@code listDeadLetterGroups}): the
     * {@code errorColumn}'s text with numbers, UUIDs and quoted values replaced; without an error column, or for rows
     * with no error written, one group {@code (no error recorded)}. A group's first and last seen are the earliest and
     * latest of its rows' last failures, read from the {@code errorTimeColumn}; null without one. Reads the first
     * {@code scanMax} set-aside rows in key order, without locking.
     *
     * @param scanMax how many set-aside rows to read at most (1 to 10000)
     * @return the groups, the largest first
     */
    List<SetAsideGroupInfo> listSetAsideGroups(int scanMax);

    /**
     * The set-aside rows whose error contains a text, case ignored, among the first {@code scanMax} in key order.
     *
     * @param text the text, at most 200 characters; empty for all
     * @param scanMax how many set-aside rows to read at most (1 to 10000)
     * @return the rows found, in key order
     */
    List<SetAsideRowInfo> searchSetAside(String text, int scanMax);

    /**
     * Gives the set-aside rows of one group (among the first {@code scanMax}) another round of attempts, as
     * {@link #redeliverSetAside} does for all of them: the readers take them at their own pace.
     *
     * @param key the group's key, as {@link #listSetAsideGroups} shows it
     * @param scanMax how many set-aside rows to read at most (1 to 10000)
     * @return rows given back
     */
    int redeliverSetAsideGroup(String key, int scanMax);

    /**
     * Starts re-queueing one group's set-aside rows (among the first {@code scanMax} in key order), in key order, at
     * most {@code rowsPerSecond}, in the background: each row is given another round of attempts (as
     * {@link #redeliverSetAside}, one statement each) and the readers take it at their own pace; a row no longer set
     * aside when its turn comes is counted as failed and the job goes on. One re-queue job runs at a time per table
     * activation; it lives in memory only, and a restart or redeploy ends it (the rows not yet re-queued stay set
     * aside).
     *
     * @param key the group's key, as {@link #listSetAsideGroups} shows it
     * @param scanMax how many set-aside rows to read at most (1 to 10000)
     * @param rowsPerSecond the rate, over 0 and at most 1000
     * @return the job's progress
     */
    RedeliveryJobInfo startSetAsideGroupRequeue(String key, int scanMax, double rowsPerSecond);

    /**
     * As {@link #startSetAsideGroupRequeue}, for chosen set-aside rows, in the order given; keys not among the
     * first 10000 set-aside rows are left out.
     *
     * @param keys the rows' keys as {@link #searchSetAside} shows them (1 to 10000 of them)
     * @param rowsPerSecond the rate, over 0 and at most 1000
     * @return the job's progress
     */
    RedeliveryJobInfo startSetAsideRequeue(String[] keys, double rowsPerSecond);

    /** Returns the running or last re-queue job's progress, or null when none was started since deployment. */
    RedeliveryJobInfo getRequeueJob();

    /** Returns whether a running re-queue job was asked to stop (the row in progress finishes). */
    boolean cancelRequeue();

    /**
     * Deletes the rows set aside.
     *
     * @return rows deleted
     */
    int purgeSetAside();
}
