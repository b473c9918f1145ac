package org.ssbjca.inbound.table;

import java.sql.SQLException;
import java.util.List;
import org.ssbjca.api.TableRow;
import org.ssbjca.backend.table.TableDefinition;
import org.ssbjca.inbound.DeliverySteps;
import org.ssbjca.inbound.FailurePolicy;

/**
 * How a table activation's readers take rows, chosen once when the activation starts ({@link #of}):
 * {@link TransactionalTableDelivery} takes them in the delivery's transaction, {@link LeasedTableDelivery} leases
 * them before it. Both run each delivery through the same steps ({@link TableTurn}) and the same committed rule
 * ({@link DeliverySteps#committed}). Implementations hold no state of their own: one serves every reader of the
 * activation, each call on the calling reader's thread.
 */
interface TableDelivery {

    /**
     * One delivery transaction of up to {@code batchSize} rows.
     *
     * @return whether rows were taken (false: the reader waits its poll interval)
     * @throws Exception whatever the reader must treat as a failure of its connection or endpoint
     */
    boolean deliverOnce(TableTurn turn) throws Exception;

    /**
     * The delivery's rows, in its transaction on the reader's connection.
     *
     * @param had the rows had before the transaction began, or null
     * @return the rows to give the bean, in order
     */
    List<TableRow> rows(TableTurn turn, List<TableRow> had) throws SQLException;

    /**
     * After the bean's call for a row, in the delivery's transaction.
     *
     * @return false if the row is no longer this delivery's (the delivery then rolls back)
     */
    boolean settle(TableTurn turn, TableRow row) throws SQLException;

    /**
     * The delivery failed and its transaction is about to end: what must be done while it still holds the rows.
     *
     * @param charged the rows the failure is charged to
     * @return the rows now held back while their failure is counted ({@link HeldRows#counting}), released by the
     *     turn once it is
     */
    List<TableRow> beforeRollback(TableTurn turn, List<TableRow> charged);

    /**
     * After a failed delivery, on the bookkeeping connection in a transaction of its own: what brings the rows back.
     * A transient failure (the failure policy's verdict) counts nothing; an unrecoverable one sets the charged rows
     * aside at once.
     *
     * @param rows the delivery's rows
     * @param charged those of them the failure is charged to
     * @param verdict what the failure policy made of the failure
     */
    void afterFailure(TableTurn turn, List<TableRow> rows, List<TableRow> charged, FailurePolicy.Verdict verdict)
            throws Exception;

    /** Returns the delivery of a table activation in this mode. */
    static TableDelivery of(TableDefinition.Mode mode) {
        return mode == TableDefinition.Mode.LEASED ? new LeasedTableDelivery() : new TransactionalTableDelivery();
    }
}
