package org.ssbjca.backend.portable;

import java.sql.SQLException;
import java.util.function.Predicate;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.ssbjca.support.ForwardingXAResource;

/**
 * Reports a {@code PREPARE TRANSACTION} that the PostgreSQL server answered with an error as a rolled-back branch
 * ({@code XA_RBROLLBACK}). PostgreSQL turns a failed PREPARE into a ROLLBACK, so nothing of the branch is left; the
 * driver reports a resource-manager failure instead (pgjdbc: {@code XAER_RMFAIL}), after which a transaction manager
 * asks for a rollback the server cannot find and records a heuristic outcome. The commonest cause is a server with
 * {@code max_prepared_transactions = 0}. A prepare that failed because the connection was lost keeps the driver's
 * code: whether the server prepared the branch is then unknown, and recovery finds out.
 */
final class RefusedPrepareXAResource extends ForwardingXAResource {

    private final Predicate<SQLException> connectionLost;

    /**
     * @param delegate the driver's resource
     * @param connectionLost whether an error from the database means the connection was lost
     */
    RefusedPrepareXAResource(XAResource delegate, Predicate<SQLException> connectionLost) {
        super(delegate);
        this.connectionLost = connectionLost;
    }

    @Override
    public int prepare(Xid xid) throws XAException {
        try {
            return super.prepare(xid);
        } catch (XAException e) {
            SQLException answer = serverAnswer(e);
            if (answer == null || (e.errorCode >= XAException.XA_RBBASE && e.errorCode <= XAException.XA_RBEND)) {
                throw e;
            }
            XAException rolledBack = new XAException("the server refused to prepare the branch and rolled it back: "
                    + answer.getMessage());
            rolledBack.errorCode = XAException.XA_RBROLLBACK;
            rolledBack.initCause(e);
            throw rolledBack;
        }
    }

    /** Returns the server's error that caused {@code e}, or null if there is none or the connection was lost. */
    private SQLException serverAnswer(XAException e) {
        SQLException answer = null;
        for (Throwable t = e.getCause(); t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException) {
                for (SQLException s = (SQLException) t; s != null; s = s.getNextException()) {
                    if (connectionLost.test(s)) {
                        return null;
                    }
                    answer = answer == null ? s : answer;
                }
            }
        }
        return answer;
    }
}
