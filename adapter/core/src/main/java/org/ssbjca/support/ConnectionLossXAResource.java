package org.ssbjca.support;

import java.sql.SQLException;
import java.util.function.Predicate;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * Reports a lost connection to the transaction manager as {@code XAER_RMFAIL} (the database could not be reached:
 * try again later) where the driver says {@code XAER_RMERR} (the database failed the call). The difference decides
 * what happens to a prepared branch: a rollback or commit that failed with {@code XAER_RMFAIL} is retried by the
 * transaction manager's recovery once the database is back; one that failed with {@code XAER_RMERR} is recorded as a
 * heuristic hazard and left, with its locks, for an operator. PostgreSQL's driver, for one, reports
 * {@code XAER_RMERR} when the server said it was shutting down ({@code 57P01}) just before the connection went.
 */
public final class ConnectionLossXAResource extends ForwardingXAResource {

    private final Predicate<SQLException> connectionLost;

    /**
     * @param delegate the resource calls go to
     * @param connectionLost whether an error from the database means the connection was lost (the backend knows
     *        its SQL states)
     */
    public ConnectionLossXAResource(XAResource delegate, Predicate<SQLException> connectionLost) {
        super(delegate);
        this.connectionLost = connectionLost;
    }

    @Override
    public void start(Xid xid, int flags) throws XAException {
        try {
            super.start(xid, flags);
        } catch (XAException e) {
            throw translated(e);
        }
    }

    @Override
    public void end(Xid xid, int flags) throws XAException {
        try {
            super.end(xid, flags);
        } catch (XAException e) {
            throw translated(e);
        }
    }

    @Override
    public int prepare(Xid xid) throws XAException {
        try {
            return super.prepare(xid);
        } catch (XAException e) {
            throw translated(e);
        }
    }

    @Override
    public void commit(Xid xid, boolean onePhase) throws XAException {
        try {
            super.commit(xid, onePhase);
        } catch (XAException e) {
            throw translated(e);
        }
    }

    @Override
    public void rollback(Xid xid) throws XAException {
        try {
            super.rollback(xid);
        } catch (XAException e) {
            throw translated(e);
        }
    }

    @Override
    public void forget(Xid xid) throws XAException {
        try {
            super.forget(xid);
        } catch (XAException e) {
            throw translated(e);
        }
    }

    @Override
    public Xid[] recover(int flag) throws XAException {
        try {
            return super.recover(flag);
        } catch (XAException e) {
            throw translated(e);
        }
    }

    /**
     * Returns {@code e} itself, or, for an {@code XAER_RMERR} caused by a lost connection, an {@code XAER_RMFAIL} with
     * the same message, caused by {@code e}.
     *
     * @param e what the driver threw
     */
    XAException translated(XAException e) {
        if (e.errorCode != XAException.XAER_RMERR || !causedByConnectionLoss(e)) {
            return e;
        }
        XAException failed = new XAException(e.getMessage());
        failed.errorCode = XAException.XAER_RMFAIL;
        failed.initCause(e);
        return failed;
    }

    private boolean causedByConnectionLoss(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException) {
                for (SQLException s = (SQLException) t; s != null; s = s.getNextException()) {
                    if (connectionLost.test(s)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}
