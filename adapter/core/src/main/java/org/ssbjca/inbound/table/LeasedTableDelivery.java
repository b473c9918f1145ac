package org.ssbjca.inbound.table;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.ssbjca.api.TableRow;
import org.ssbjca.inbound.FailurePolicy;

/**
 * Leased mode: the rows are leased (each taking counted) and that lease committed on the bookkeeping connection
 * before the delivery (at least once); the delivery's transaction removes each row, if its lease is still this
 * taking's, with the bean's work. A failed delivery ends the leases of the rows it is charged to after
 * {@code retryDelaySeconds}, and gives the taking back to the others, their leases ended at once.
 */
final class LeasedTableDelivery implements TableDelivery {

    @Override
    public boolean deliverOnce(TableTurn turn) throws Exception {
        List<TableRow> rows;
        Connection bookkeeping = turn.connection().bookkeeping();
        try {
            rows = turn.queue().lease(bookkeeping, turn.settings().batchSize);
            bookkeeping.commit();
        } catch (Exception e) {
            bookkeeping.rollback();
            throw e;
        }
        if (rows.isEmpty()) {
            turn.activation().nothingDelivered();
            return false;
        }
        turn.deliver(rows);
        return true;
    }

    @Override
    public List<TableRow> rows(TableTurn turn, List<TableRow> had) {
        return had;
    }

    /** Removes the row in the delivery's transaction if its lease is still this taking's. */
    @Override
    public boolean settle(TableTurn turn, TableRow row) throws SQLException {
        if (turn.queue().complete(turn.connection().connection(), row)) {
            return true;
        }
        turn.leaseLost(row);
        return false;
    }

    @Override
    public List<TableRow> beforeRollback(TableTurn turn, List<TableRow> charged) {
        return List.of(); // the lease keeps the rows from the other readers
    }

    /**
     * The charged rows' leases end after the retry delay (a transient failure gives their taking back, counting
     * nothing); the other rows' at once, their taking given back. A counted failure's error is written to the charged
     * rows in the same transaction.
     */
    @Override
    public void afterFailure(TableTurn turn, List<TableRow> rows, List<TableRow> charged,
            FailurePolicy.Verdict verdict) throws Exception {
        int delay = turn.settings().retryDelaySeconds;
        turn.bookkeeping(c -> {
            for (TableRow row : rows) {
                if (charged != rows && !charged.contains(row)) {
                    turn.queue().giveBack(c, row, 0); // not its failure: taken again at once
                } else if (verdict == FailurePolicy.Verdict.TRANSIENT) {
                    turn.queue().giveBack(c, row, delay);
                } else {
                    turn.queue().release(c, row, delay);
                }
            }
            if (verdict != FailurePolicy.Verdict.TRANSIENT) {
                turn.queue().recordErrors(c, charged, turn.error()); // the attempt its lease counted failed
            }
            if (verdict == FailurePolicy.Verdict.UNRECOVERABLE) {
                turn.queue().setAside(c, charged);
            }
        });
    }
}
