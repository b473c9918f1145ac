package org.ssbjca.inbound.table;

import jakarta.resource.spi.endpoint.MessageEndpoint;
import java.sql.Connection;
import java.util.List;
import org.ssbjca.api.TableRow;
import org.ssbjca.api.TableRowListener;
import org.ssbjca.backend.table.TableQueue;
import org.ssbjca.brokers.DeliveryContext;
import org.ssbjca.inbound.DeliverySteps;
import org.ssbjca.inbound.FailurePolicy;
import org.ssbjca.inbound.ReaderConnection;
import org.ssbjca.inbound.TransactionOutcome;
import org.ssbjca.support.AdapterLog;
import org.ssbjca.support.DeliveryEvent;
import org.ssbjca.support.FlightEvents;

/**
 * One delivery transaction of a table reader, the steps both table deliveries share: begin the transaction, have
 * the rows ({@link TableDelivery#rows}), call the bean for each and settle it, end the transaction, then decide by
 * the one committed rule ({@link DeliverySteps#committed}) and keep the books ({@link TableFailures} after a failed
 * delivery). Used once, on the reader's thread.
 * <p>
 * A failed delivery is charged to the row on which the bean threw, alone: the rows before it were handled and are
 * rolled back only with it, those after it were not delivered. A failure that cannot be told of one row (the bean
 * returned but the transaction rolled back: marked rollback-only, or its commit failed; a lost lease; the adapter's
 * own work) is charged to every row the bean was given.
 */
final class TableTurn {

    /** The table reader's category, which its logs have always had. */
    private static final AdapterLog LOG = AdapterLog.of(TableReader.class);

    private final TableActivation activation;
    private final TableSettings settings;
    private final String reader;
    private final ReaderConnection connection;
    private final MessageEndpoint endpoint;
    private final TableQueue queue;
    private final TableDelivery delivery;
    private final TableTransaction transaction;
    /** The rows given the bean, in order; null until had. */
    private List<TableRow> rows;
    /** False once anything failed the delivery: its transaction is rolled back. */
    private boolean ok = true;
    /** What failed the delivery (the bean, the database), or null. */
    private Throwable failure;
    /** The failed delivery's error, set before its books are kept. */
    private String error;
    /** What failed on the database while having or settling the rows, or null: the connection is not used again. */
    private Exception broken;
    /** What ending the transaction threw, or null. */
    private Exception ending;
    /** The row the bean was given last, or null. */
    private TableRow failedOn;
    /** Whether the bean's call for {@link #failedOn} threw. */
    private boolean rowFailed;
    /** The rows held while the failure is counted. */
    private List<TableRow> counting = List.of();
    private TableRow lostLease;
    private List<TableRow> heldTaken;

    TableTurn(TableActivation activation, String reader, ReaderConnection connection, MessageEndpoint endpoint,
            TableQueue queue) {
        this.activation = activation;
        this.settings = activation.settings();
        this.reader = reader;
        this.connection = connection;
        this.endpoint = endpoint;
        this.queue = queue;
        this.delivery = activation.delivery();
        this.transaction = activation.transaction();
    }

    /** Returns whether rows were taken. */
    boolean run() throws Exception {
        return delivery.deliverOnce(this);
    }

    /**
     * The delivery transaction: has the rows, calls the bean for each, settles them, ends the transaction, then keeps
     * the books ({@link #settle}). The rows of a failed delivery stay this reader's (held, or leased) until its
     * failure is counted.
     *
     * @param had the rows had before the transaction (leased), or null to have them in it
     * @return whether it had rows
     */
    boolean deliver(List<TableRow> had) throws Exception {
        transaction.begin(connection);
        try {
            endpoint.beforeDelivery(activation.method());
        } catch (Exception | Error e) {
            // the container failed the delivery before the bean: rows had before it are taken again after the retry
            // delay, as after a failed delivery
            if (had != null) {
                try {
                    delivery.afterFailure(this, had, had, FailurePolicy.Verdict.COUNTED);
                } catch (Exception released) {
                    e.addSuppressed(released);
                }
            }
            throw e;
        }
        try {
            rows = delivery.rows(this, had);
            callBean();
        } catch (RuntimeException | Error e) {
            ok = false;
            failure = e;
        } catch (Exception e) {
            // having or settling the rows failed (the database): roll back, keep the books, then the reader's
            // failure path
            ok = false;
            failure = e;
            broken = e;
        } finally {
            if (!ok && rows != null && !rows.isEmpty()) {
                counting = delivery.beforeRollback(this, charged());
            }
            ending = transaction.end(ok, connection, endpoint);
        }
        if (broken != null) {
            ending = first(broken, ending);
        }
        return settle(connection.takeOutcome());
    }

    /**
     * Calls the bean for each row and settles it, in the delivery's transaction. The bean's verbs and JDBC work
     * through the connection factory run on this reader's connection, in that transaction: one branch.
     */
    private void callBean() throws Exception {
        DeliveryContext.enter(activation.database().source().config(), connection.session(),
                transaction.contextKey(activation.transactionKey()), null,
                transaction == TableTransaction.XA ? connection::inBranch : null);
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
                if (!delivery.settle(this, row)) {
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
    }

    /**
     * Decides by the one committed rule ({@link DeliverySteps#committed}: the reader's transaction holds the
     * delivery's work, so only a commit it saw counts) and keeps the books.
     *
     * @param outcome how the reader's connection saw the transaction end
     * @return whether the delivery had rows
     */
    private boolean settle(TransactionOutcome outcome) throws Exception {
        HeldRows held = activation.held();
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
        if (heldTaken != null) {
            LOG.heldRowsGivenBack(reader, heldTaken.size(), heldTaken.get(0));
        }
        if (rows == null || rows.isEmpty()) {
            throwIfFailed(ending);
            activation.nothingDelivered();
            return false;
        }
        if (DeliverySteps.committed(ok, outcome, true)) {
            activation.breaker().succeeded();
            activation.delivered.add(rows.size());
            activation.rowsDelivered(rows);
            throwIfFailed(ending);
            return true;
        }
        // rolled back: the bean's failure, a failed commit (a deferred constraint), a lost lease, a database error;
        // or ended without the reader's branch seeing it commit
        activation.failed.increment();
        Throwable cause = lostLease != null ? new LeaseRanOut(lostLease, settings.definition.leaseSeconds())
                : failure != null ? failure : ending != null ? ending
                : new IllegalStateException(outcome == TransactionOutcome.NOT_SEEN
                        ? "the delivery's transaction ended without the reader's branch seeing it commit"
                        : "the delivery's transaction rolled back");
        List<TableRow> charged = charged();
        FailurePolicy.Verdict verdict = settings.failurePolicy.classify(failure);
        if (verdict != FailurePolicy.Verdict.UNRECOVERABLE) {
            activation.breaker().failed(charged.get(0).key(), cause.toString());
        }
        List<TableRow> setAside = new TableFailures(activation, reader).report(cause, charged, verdict);
        error = DeliverySteps.failureText(cause);
        try {
            delivery.afterFailure(this, rows, charged, verdict);
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
     * A transactional taking found held rows among those it took: they are given back undelivered (the delivery
     * rolls back), and the reader waits its poll interval.
     *
     * @return no rows, to give the bean
     */
    List<TableRow> givenBackHeld(List<TableRow> taken) {
        heldTaken = taken;
        ok = false;
        return List.of();
    }

    /** A leased row's lease ended before its delivery committed: the delivery rolls back. */
    void leaseLost(TableRow row) {
        activation.leasesLost.increment();
        LOG.leaseLost(reader, row);
        lostLease = row;
        ok = false;
    }

    /** Runs bookkeeping on the reader's bookkeeping connection, committed when it returns, else rolled back. */
    void bookkeeping(Bookkeeping work) throws Exception {
        Connection c = connection.bookkeeping();
        try {
            work.run(c);
            c.commit();
        } catch (Exception e) {
            c.rollback();
            throw e;
        }
    }

    /** Work on the bookkeeping connection ({@link #bookkeeping}). */
    @FunctionalInterface
    interface Bookkeeping {
        void run(Connection c) throws Exception;
    }

    /** Returns the failed delivery's error, as a dead letter's ({@link DeliverySteps#failureText}), once settled. */
    String error() {
        return error;
    }

    TableActivation activation() {
        return activation;
    }

    TableSettings settings() {
        return settings;
    }

    ReaderConnection connection() {
        return connection;
    }

    TableQueue queue() {
        return queue;
    }

    HeldRows held() {
        return activation.held();
    }

    /**
     * The rows a failed delivery is charged to: the row on which the bean threw, alone; else (the failure cannot be
     * told of one row) every row the bean was given, up to the one it was given last; all of them when it was given
     * none.
     */
    @SuppressWarnings("ReferenceEquality") // the row object the bean was given, not an equal row
    private List<TableRow> charged() {
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

    /** Returns {@code a} with {@code b} suppressed in it, or whichever is not null. */
    static Exception first(Exception a, Exception b) {
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

    /** A leased row's lease ended before its delivery committed: the cause of that delivery's rollback. */
    static final class LeaseRanOut extends RuntimeException {
        private static final long serialVersionUID = 1L;

        LeaseRanOut(TableRow row, int leaseSeconds) {
            super("the lease on " + row + " ran out (leaseSeconds " + leaseSeconds + ") before its delivery"
                    + " committed; another reader may have taken it", null, false, false);
        }

        @Override
        @SuppressWarnings("OverrideThrowableToString") // the breaker's last error is the cause's toString: message only
        public String toString() {
            return getMessage();
        }
    }
}
