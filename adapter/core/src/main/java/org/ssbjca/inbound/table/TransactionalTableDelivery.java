package org.ssbjca.inbound.table;

import java.sql.SQLException;
import java.util.List;
import org.ssbjca.api.TableRow;
import org.ssbjca.inbound.FailurePolicy;

/**
 * Transactional mode: the rows are taken (locked, then removed or marked done) on the reader's connection inside the
 * delivery's transaction, so they go with the bean's work or come back with its rollback (exactly once). A failed
 * delivery counts an attempt for the rows it is charged to afterwards, on the bookkeeping connection, and holds them
 * back in memory ({@link HeldRows}) from before the rollback releases them until that count is committed and
 * {@code retryDelaySeconds} has passed; the activation's readers take the rows behind them meanwhile.
 */
final class TransactionalTableDelivery implements TableDelivery {

    @Override
    public boolean deliverOnce(TableTurn turn) throws Exception {
        return turn.deliver(null);
    }

    /** Takes the rows, leaving out those held; a taking that still holds one gives them all back undelivered. */
    @Override
    public List<TableRow> rows(TableTurn turn, List<TableRow> had) throws SQLException {
        HeldRows held = turn.held();
        List<TableRow> rows = turn.queue().take(turn.connection().connection(), turn.settings().batchSize,
                held.keys());
        if (held.anyHeld(rows)) {
            // taken as its failure was being counted, or one of more held rows than a taking leaves out: given back
            // undelivered (the rollback), and the reader waits its poll interval
            return turn.givenBackHeld(rows);
        }
        return rows;
    }

    @Override
    public boolean settle(TableTurn turn, TableRow row) {
        return true; // its taking is in the transaction already
    }

    /** Holds the charged rows before the rollback gives them back, until their failure is counted. */
    @Override
    public List<TableRow> beforeRollback(TableTurn turn, List<TableRow> charged) {
        turn.held().counting(charged);
        return charged;
    }

    /**
     * One more attempt for each charged row, its error written with it, but for a transient failure; an unrecoverable
     * one sets them aside.
     */
    @Override
    public void afterFailure(TableTurn turn, List<TableRow> rows, List<TableRow> charged,
            FailurePolicy.Verdict verdict) throws Exception {
        turn.bookkeeping(c -> {
            if (verdict != FailurePolicy.Verdict.TRANSIENT) {
                turn.queue().countFailures(c, charged);
                turn.queue().recordErrors(c, charged, turn.error());
            }
            if (verdict == FailurePolicy.Verdict.UNRECOVERABLE) {
                turn.queue().setAside(c, charged);
            }
        });
    }
}
