package org.ssbjca.inbound;

import jakarta.resource.spi.UnavailableException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
 * attempt for the rows it is charged to afterwards, on the bookkeeping connection. Leased mode: the rows are leased
 * (each taking counted) and that lease committed on the bookkeeping connection before the delivery; the delivery's
 * transaction removes them (if the lease is still this taking's) with the bean's work; a failed delivery ends their
 * leases after {@code retryDelaySeconds}, and gives the taking back to the rows it is not charged to.
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
                return false;
            }
            deliver(queue, rows);
            return true;
        }
        return deliver(queue, null);
    }

    /**
     * One delivery transaction: takes the rows (transactional mode) or has them (leased), calls the bean for each,
     * completes leased rows, and keeps the books.
     *
     * @param leased the rows leased for this delivery, or null to take them in it
     * @return whether it had rows
     */
    private boolean deliver(TableQueue queue, List<TableRow> leased) throws Exception {
        boolean local = !activation.transacted();
        List<TableRow> rows = leased;
        boolean ok = true;
        Throwable failure = null;
        Exception ending;
        Exception broken = null;
        TableRow failedOn = null;
        boolean rowFailed = false;
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
                rows = queue.take(connection.connection(), settings.batchSize);
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
            ending = end(ok, local);
        }
        if (broken != null) {
            ending = first(broken, ending);
        }
        Boolean outcome = connection.takeOutcome();
        if (ending != null && outcome == null) {
            // how the transaction ended is not known (it may have committed): no books, the reader's failure path
            if (failure != null && failure != ending) {
                ending.addSuppressed(failure);
            }
            throw ending;
        }
        boolean committed = ok && !Boolean.FALSE.equals(outcome);
        if (rows == null || rows.isEmpty()) {
            throwIfFailed(ending);
            return false;
        }
        if (committed) {
            activation.delivered.add(rows.size());
            throwIfFailed(ending);
            return true;
        }
        // rolled back: the bean's failure, a failed commit (a deferred constraint), a lost lease or a database error
        activation.failed.increment();
        Throwable cause = failure != null ? failure : ok ? ending : null;
        List<TableRow> charged = charged(rows, failedOn, rowFailed);
        if (cause != null) {
            logFailure(cause, charged);
        }
        try {
            afterFailure(queue, rows, charged, leased != null);
        } catch (Exception e) {
            if (ending == null) {
                throw e;
            }
            ending.addSuppressed(e);
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
     * Says a failed delivery: each charged row at its last attempt is set aside ({@code SSBJCA0118}, one line per
     * row), the other charged rows are taken again ({@code SSBJCA0113}, one line for them).
     */
    private void logFailure(Throwable cause, List<TableRow> charged) {
        int maxAttempts = settings.definition.maxAttempts();
        List<TableRow> again = new ArrayList<>(charged.size());
        for (TableRow row : charged) {
            if (maxAttempts > 0 && row.attempt() >= maxAttempts) {
                LOG.rowSetAside(cause, name, row, cause.toString(), row.attempt(), maxAttempts);
            } else {
                again.add(row);
            }
        }
        if (!again.isEmpty()) {
            Object what = again.size() == 1 ? again.get(0)
                    : again.size() + " rows (" + again.get(0) + " ... " + again.get(again.size() - 1) + ")";
            LOG.rowDeliveryFailed(cause, name, what, cause.toString(), settings.retryDelaySeconds);
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
     * Leased: the rows' leases end after the retry delay, and the rows the failure is not charged to get their taking
     * back. Transactional: one more attempt for each charged row, then a pause.
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
                        queue.giveBack(bookkeeping, row, settings.retryDelaySeconds);
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
        if (!leased) {
            pause(TimeUnit.SECONDS.toMillis(settings.retryDelaySeconds));
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
