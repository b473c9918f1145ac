package org.ssbjca.inbound;

import jakarta.resource.spi.UnavailableException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import org.ssbjca.api.TableRow;
import org.ssbjca.api.TableRowListener;
import org.ssbjca.backend.TableQueue;
import org.ssbjca.brokers.DeliveryContext;
import org.ssbjca.support.AdapterLog;
import org.ssbjca.support.Backoff;
import org.ssbjca.support.DeliveryEvent;
import org.ssbjca.support.FlightEvents;
import org.ssbjca.support.TaskEnd;

/**
 * One reader of a table activation: a loop on a container work thread, each turn one delivery transaction of up to
 * {@code batchSize} rows. It holds its own connection (an XA branch for a transacted bean; a local transaction
 * otherwise) and endpoint; a failure closes both and retries with capped exponential backoff and jitter.
 * <p>
 * Transactional mode: the rows are taken (locked, removed or marked done) on the reader's connection inside the
 * delivery's transaction, so they go with the bean's work or come back with its rollback; a failed delivery counts an
 * attempt for the rows it is charged to afterwards, on the bookkeeping connection, and holds them back in memory
 * ({@link HeldRows}) until that count is committed and {@code retryDelaySeconds} has passed: the activation's readers
 * take the rows behind them meanwhile. Leased mode: the rows are leased
 * (each taking counted) and that lease committed on the bookkeeping connection before the delivery; the delivery's
 * transaction removes them (if the lease is still this taking's) with the bean's work; a failed delivery ends the
 * leases of the rows it is charged to after {@code retryDelaySeconds}, and gives the taking back to the others, their
 * leases ended at once.
 * <p>
 * A failed delivery is charged to the row on which the bean threw, alone: the rows before it were handled and are
 * rolled back only with it, those after it were not delivered. So a batch's good rows are not set aside with a poison
 * row; they come back with it until it is set aside. A failure that cannot be told of one row (the bean returned but
 * the transaction rolled back: marked rollback-only, or its commit failed; a lost lease; the adapter's own work) is
 * charged to every row the bean was given.
 */
final class TableReader implements Reader {

    private static final AdapterLog LOG = AdapterLog.of(TableReader.class);

    private final TableActivation activation;
    private final TableSettings settings;
    private final String name;
    private final Backoff backoff = new Backoff(500, 30_000, 0.5);
    private final TaskEnd end = new TaskEnd();
    private volatile boolean stopped;
    private ReaderConnection connection;
    private MessageEndpoint endpoint;

    TableReader(TableActivation activation, int id) {
        this.activation = activation;
        this.settings = activation.settings();
        this.name = "reader " + id + " of " + activation.name();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void run() {
        if (!end.begin()) {
            return; // stopped while it waited for a thread: it never runs, and its end was reached by the stop
        }
        try {
            while (!stopped) {
                try {
                    ensureReady();
                    boolean took = deliverOnce();
                    activation.readerSucceeded(name);
                    backoff.reset();
                    if (!took) {
                        pause(settings.pollMillis);
                    }
                } catch (Exception | Error e) {
                    if (stopped) {
                        break;
                    }
                    long delay = backoff.nextDelayMillis();
                    if (!(e instanceof UnavailableException)) {
                        String what = QueueReader.describe(e);
                        if (activation.readerFailed(name, what)) {
                            // once per activation and cause, with the stack trace; the retries at debug
                            LOG.tableReaderFailed(e, name, what, backoff.failures(), delay);
                        } else {
                            LOG.tableReaderStillFailing(e, name, what, backoff.failures(), delay);
                        }
                    }
                    discard();
                    pause(delay);
                }
            }
        } finally {
            discard();
            activation.failing.stopped(name);
            end.reached();
        }
    }

    /** @return whether rows were taken */
    private boolean deliverOnce() throws Exception {
        TableQueue queue = activation.queue(); // resolved outside any delivery: a missing table is a reader failure
        if (activation.leased()) {
            List<TableRow> rows;
            Connection bookkeeping = connection.bookkeeping();
            try {
                rows = queue.lease(bookkeeping, settings.batchSize);
                bookkeeping.commit();
            } catch (Exception e) {
                bookkeeping.rollback();
                throw e;
            }
            if (rows.isEmpty()) {
                activation.nothingDelivered();
                return false;
            }
            deliver(queue, rows);
            return true;
        }
        return deliver(queue, null);
    }

    /**
     * One delivery transaction: takes the rows (transactional mode) or has them (leased), calls the bean for each,
     * completes leased rows, and keeps the books. In the transactional mode the rows held back after a failed delivery
     * ({@link HeldRows}) are left out of the taking; the rows of a failed delivery are held before its rollback
     * releases them, so that no reader of this activation takes them before their failure is counted, then until
     * {@code retryDelaySeconds} has passed.
     *
     * @param leased the rows leased for this delivery, or null to take them in it
     * @return whether it had rows
     */
    private boolean deliver(TableQueue queue, List<TableRow> leased) throws Exception {
        boolean local = !activation.transacted();
        HeldRows held = activation.held();
        List<TableRow> rows = leased;
        boolean ok = true;
        Throwable failure = null;
        Exception ending;
        Exception broken = null;
        TableRow failedOn = null;
        boolean rowFailed = false;
        TableRow lostLease = null;
        List<TableRow> heldTaken = null;
        List<TableRow> counting = List.of();
        if (local) {
            connection.connection().setAutoCommit(false);
        }
        try {
            endpoint.beforeDelivery(activation.method());
        } catch (Exception | Error e) {
            // the container failed the delivery before the bean: leased rows are taken again after the retry delay,
            // as after a failed delivery, not once their whole lease has run out
            if (leased != null) {
                try {
                    afterFailure(queue, leased, leased, true);
                } catch (Exception released) {
                    e.addSuppressed(released);
                }
            }
            throw e;
        }
        try {
            if (rows == null) {
                rows = queue.take(connection.connection(), settings.batchSize, held.keys());
                if (held.anyHeld(rows)) {
                    // taken as its failure was being counted, or one of more held rows than a taking leaves out:
                    // given back undelivered (the rollback below), and the reader waits its poll interval
                    heldTaken = rows;
                    rows = List.of();
                    ok = false;
                }
            }
            // the bean's verbs and JDBC work through the connection factory run on this reader's connection, in
            // the delivery's transaction: one branch, committed in one phase
            Object transaction = activation.transactionKey();
            DeliveryContext.enter(activation.database().source().config(), connection.session(),
                    transaction == null && local ? DeliveryContext.NO_TRANSACTION : transaction);
            DeliveryEvent event = rows.isEmpty() ? null : FlightEvents.begun(new DeliveryEvent());
            try {
                for (TableRow row : rows) {
                    failedOn = row;
                    try {
                        ((TableRowListener) endpoint).onRow(row);
                    } catch (RuntimeException | Error e) {
                        rowFailed = true; // the failure is this row's alone (see charged)
                        throw e;
                    }
                    if (leased != null && !queue.complete(connection.connection(), row)) {
                        activation.leasesLost.increment();
                        LOG.leaseLost(name, row);
                        lostLease = row;
                        ok = false;
                        break;
                    }
                }
            } catch (Exception | Error e) {
                ok = false;
                throw e;
            } finally {
                DeliveryContext.leave();
                boolean succeeded = ok;
                DeliveryEvent.finish(event, settings.definition.table(), rows.size(), null,
                        () -> succeeded && !activation.transactionRollbackOnly());
            }
        } catch (RuntimeException | Error e) {
            ok = false;
            failure = e;
        } catch (Exception e) {
            // taking or completing the rows failed (the database): roll back, keep the books, then the reader's
            // failure path
            ok = false;
            failure = e;
            broken = e;
        } finally {
            if (!ok && leased == null && rows != null && !rows.isEmpty()) {
                // held before the rollback gives them back, until their failure is counted
                counting = charged(rows, failedOn, rowFailed);
                held.counting(counting);
            }
            ending = end(ok, local);
        }
        if (broken != null) {
            ending = first(broken, ending);
        }
        TransactionOutcome outcome = connection.takeOutcome();
        if (ending != null && broken == null && failure == null && outcome == TransactionOutcome.ROLLED_BACK
                && (lostLease != null || heldTaken != null)) {
            ending = null; // the container's commit refused the rollback the adapter asked for: nothing more
        }
        if (ending != null && outcome == TransactionOutcome.NOT_SEEN) {
            // how the transaction ended is not known (it may have committed): no books, the reader's failure path
            held.counted(counting);
            if (failure != null && failure != ending) {
                ending.addSuppressed(failure);
            }
            throw ending;
        }
        boolean committed = ok && outcome != TransactionOutcome.ROLLED_BACK;
        if (heldTaken != null) {
            LOG.heldRowsGivenBack(name, heldTaken.size(), heldTaken.get(0));
        }
        if (rows == null || rows.isEmpty()) {
            throwIfFailed(ending);
            activation.nothingDelivered();
            return false;
        }
        if (committed) {
            activation.delivered.add(rows.size());
            activation.rowsDelivered(rows);
            throwIfFailed(ending);
            return true;
        }
        // rolled back: the bean's failure, a failed commit (a deferred constraint), a lost lease or a database error
        activation.failed.increment();
        Throwable cause = lostLease != null ? new LeaseRanOut(lostLease, settings.definition.leaseSeconds())
                : failure != null ? failure : ending != null ? ending
                : new IllegalStateException("the delivery's transaction rolled back");
        List<TableRow> charged = charged(rows, failedOn, rowFailed);
        List<TableRow> setAside = logFailure(cause, charged);
        try {
            afterFailure(queue, rows, charged, leased != null);
        } catch (Exception e) {
            if (ending == null) {
                throw e;
            }
            ending.addSuppressed(e);
        } finally {
            held.counted(counting);
            held.forget(setAside);
            if (lostLease != null) {
                held.forget(List.of(lostLease)); // another reader took it
            }
        }
        // then the reader's own failure path: a connection whose transaction failed to end is not used again
        throwIfFailed(ending);
        return true;
    }

    /**
     * The rows a failed delivery is charged to: the row on which the bean threw, alone; else (the failure cannot be
     * told of one row) every row the bean was given, up to the one it was given last; all of them when it was given
     * none.
     *
     * @param rows the delivery's rows, in the order the bean was given them
     * @param failedOn the row the bean was given last, or null
     * @param rowFailed whether the bean's call for {@code failedOn} threw
     */
    private static List<TableRow> charged(List<TableRow> rows, TableRow failedOn, boolean rowFailed) {
        if (rowFailed) {
            return List.of(failedOn);
        }
        for (int i = 0; failedOn != null && i < rows.size(); i++) {
            if (rows.get(i) == failedOn) {
                return rows.subList(0, i + 1);
            }
        }
        return rows;
    }

    /**
     * Holds the charged rows for the retry delay and says the failure: each charged row at its last attempt is set
     * aside ({@code SSBJCA0118}, one line per row); of the others, those failing for the first time are logged at
     * WARN with the cause ({@code SSBJCA0113}, one line for them), those that failed before at DEBUG with their count
     * ({@code SSBJCA0130}). The activation's {@code LastError} names the rows and the cause.
     *
     * @return the charged rows set aside
     */
    private List<TableRow> logFailure(Throwable cause, List<TableRow> charged) {
        int maxAttempts = settings.definition.maxAttempts();
        HeldRows held = activation.held();
        List<TableRow> first = new ArrayList<>(charged.size());
        List<TableRow> again = new ArrayList<>(charged.size());
        List<TableRow> setAside = new ArrayList<>(0);
        int failures = 0;
        for (TableRow row : charged) {
            int n = held.failed(row, settings.retryDelaySeconds);
            failures = Math.max(failures, n);
            if (maxAttempts > 0 && row.attempt() >= maxAttempts) {
                LOG.rowSetAside(cause, name, row, cause.toString(), row.attempt(), maxAttempts);
                setAside.add(row);
            } else if (n == 1) {
                first.add(row);
            } else {
                again.add(row);
            }
        }
        if (!first.isEmpty()) {
            LOG.rowDeliveryFailed(cause, name, rows(first), cause.toString(), settings.retryDelaySeconds);
        }
        HeldRows.Failed oldest = held.get(charged.get(0));
        String since = oldest == null ? "now" : oldest.firstFailure.toString();
        if (!again.isEmpty()) {
            LOG.rowFailedAgain(name, rows(again), cause.toString(), failures, since, settings.retryDelaySeconds);
        }
        activation.rowFailed(rows(charged) + " failed" + (failures > 1 ? " " + failures + " times since " + since
                : "") + ": " + cause + (setAside.isEmpty() ? "; taken again in " + settings.retryDelaySeconds + " s"
                : "; set aside after " + maxAttempts + " attempts"));
        return setAside;
    }

    /** @return one row, or how many with the first and last */
    private static Object rows(List<TableRow> rows) {
        return rows.size() == 1 ? rows.get(0)
                : rows.size() + " rows (" + rows.get(0) + " ... " + rows.get(rows.size() - 1) + ")";
    }

    /** A leased row's lease ended before its delivery committed: the cause of that delivery's rollback. */
    static final class LeaseRanOut extends RuntimeException {
        private static final long serialVersionUID = 1L;

        LeaseRanOut(TableRow row, int leaseSeconds) {
            super("the lease on " + row + " ran out (leaseSeconds " + leaseSeconds + ") before its delivery"
                    + " committed; another reader may have taken it", null, false, false);
        }

        @Override
        public String toString() {
            return getMessage();
        }
    }

    /**
     * Ends a delivery's transaction: the container's ({@code afterDelivery}), and after it the reader's local one
     * when the bean has none, committed when the delivery went well, else rolled back. How it ended is the
     * connection's outcome ({@link ReaderConnection#takeOutcome}).
     *
     * @return what ending it threw (the first failure, the others suppressed), or null
     */
    private Exception end(boolean ok, boolean local) {
        if (!ok && !local) {
            connection.setRollbackOnly();
        }
        Exception failed = null;
        try {
            endpoint.afterDelivery();
        } catch (Exception e) {
            failed = e;
        } finally {
            if (local) {
                failed = endLocal(ok, failed);
            }
        }
        return failed;
    }

    /** The reader's local transaction: committed or rolled back, auto-commit back on; failures added to {@code failed}. */
    private Exception endLocal(boolean commit, Exception failed) {
        Exception out = failed;
        try {
            if (commit) {
                connection.commitLocal();
            } else {
                connection.rollbackLocal();
            }
        } catch (Exception e) {
            out = first(e, out);
        }
        try {
            connection.connection().setAutoCommit(true);
        } catch (Exception e) {
            out = first(out, e);
        }
        return out;
    }

    /** @return {@code a} with {@code b} suppressed in it, or whichever is not null */
    private static Exception first(Exception a, Exception b) {
        if (a == null) {
            return b;
        }
        if (b != null) {
            a.addSuppressed(b);
        }
        return a;
    }

    private static void throwIfFailed(Exception ending) throws Exception {
        if (ending != null) {
            throw ending;
        }
    }

    /**
     * Leased: the charged rows' leases end after the retry delay; the other rows get their taking back and their
     * leases end at once. Transactional: one more attempt for each charged row (held back meanwhile: see
     * {@link HeldRows}).
     *
     * @param rows the delivery's rows
     * @param charged those of them the failure is charged to
     */
    private void afterFailure(TableQueue queue, List<TableRow> rows, List<TableRow> charged, boolean leased)
            throws Exception {
        Connection bookkeeping = connection.bookkeeping();
        try {
            if (leased) {
                for (TableRow row : rows) {
                    if (charged == rows || charged.contains(row)) {
                        queue.release(bookkeeping, row, settings.retryDelaySeconds);
                    } else {
                        queue.giveBack(bookkeeping, row, 0); // not its failure: taken again at once
                    }
                }
            } else {
                queue.countFailures(bookkeeping, charged);
            }
            bookkeeping.commit();
        } catch (Exception e) {
            bookkeeping.rollback();
            throw e;
        }
    }

    private void ensureReady() throws Exception {
        if (connection == null) {
            connection = ReaderConnection.open(activation.database(), settings.transactionTimeoutSeconds);
            if (connection.timeoutIgnored() && activation.reports().firstIgnoredTimeout()) {
                LOG.transactionTimeoutIgnored(activation.name(), settings.transactionTimeoutSeconds,
                        activation.database().source().config());
            }
        }
        if (endpoint == null && !stopped) {
            endpoint = activation.factory().createEndpoint(activation.transacted() ? connection.xaResource() : null);
        }
    }

    @Override
    public boolean isStopped() {
        return stopped;
    }

    /**
     * Stops the loop: a reader in a delivery sees it when the delivery ends, a pausing one within 100 ms. Its session
     * is not cancelled (a queue reader's is, outside its bean's call): the reader itself never waits on it, only the
     * bean's verbs through the connection factory run on it, and a cancelled session ended the bean's RECEIVE empty
     * at once.
     */
    @Override
    public void stop() {
        stopped = true;
        end.dropIfWaiting(); // one that had no thread yet now never runs
    }

    /** @return the end of the reader's loop, reached once it has left its thread (or by a stop before it began) */
    @Override
    public TaskEnd end() {
        return end;
    }

    private void discard() {
        ReaderConnection c = connection;
        connection = null;
        ReaderResources.discard(endpoint, c, name);
        endpoint = null;
    }

    private void pause(long millis) {
        ReaderResources.pause(this::isStopped, millis);
    }
}
