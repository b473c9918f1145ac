package org.ssbjca.backend.portable;

import org.ssbjca.backend.Statements;

/**
 * The benchmark's view of the readers' RECEIVE on PostgreSQL: the very text a reader of a per-message listener
 * sends (TOP 1, no prioritised group, no redelivery hold), for the loops that run it without the adapter around it.
 */
public final class ReaderReceive {

    private ReaderReceive() {
    }

    /**
     * @return the text a reader sends in one round trip: its planner setting, the RECEIVE, the setting restored
     *         ({@link Statements#joined}). Every parameter is the queue's name. The second result's rows are the
     *         messages taken, or one row whose first column is null when the groups it picked were emptied meanwhile
     *         (then it is run again); see {@code ContainerLoop.rows}
     */
    public static String perMessage() {
        PostgresSql sql = new PostgresSql();
        return Statements.joined(sql.keptPlanning(), sql.receiveNext(1, false, false), sql.keptPlanningEnded());
    }
}
