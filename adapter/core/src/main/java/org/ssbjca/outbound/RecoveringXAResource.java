package org.ssbjca.outbound;

import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.ssbjca.support.ForwardingXAResource;

/**
 * The XA resource of a managed connection as the container sees it. A branch is started, ended and prepared on the
 * connection's own resource, where its work is. Completing a prepared branch ({@code commit}, {@code rollback},
 * {@code forget}) and listing them ({@code recover}) need no particular connection: once the connection is gone
 * (destroyed by the container, or dropped by a database restart), they go through the database's recovery resource,
 * which reconnects. The transaction manager keeps the resource it was given, for recovery above all, whatever the
 * container does with the connection afterwards: IronJacamar's default recovery plug-in destroys the managed
 * connection it took the resource from at every recovery scan, and a database restart closes every connection, so
 * without this the branch stayed prepared, each attempt failing with {@code XAER_RMFAIL}.
 */
final class RecoveringXAResource extends ForwardingXAResource {

    private final Supplier<XAResource> recovery;
    private final BooleanSupplier connectionUsable;

    /**
     * @param own the connection's own XA resource
     * @param recovery the database's recovery resource, one that reconnects at each call
     * @param connectionUsable whether the connection is still usable (not destroyed, not found broken)
     */
    RecoveringXAResource(XAResource own, Supplier<XAResource> recovery, BooleanSupplier connectionUsable) {
        super(own);
        this.recovery = recovery;
        this.connectionUsable = connectionUsable;
    }

    @Override
    public void commit(Xid xid, boolean onePhase) throws XAException {
        if (onePhase) {
            // a one-phase commit completes the work of this connection's session: nowhere else to run it
            super.commit(xid, true);
            return;
        }
        onWorkingResource(r -> {
            r.commit(xid, false);
            return null;
        });
    }

    @Override
    public void rollback(Xid xid) throws XAException {
        onWorkingResource(r -> {
            r.rollback(xid);
            return null;
        });
    }

    @Override
    public void forget(Xid xid) throws XAException {
        onWorkingResource(r -> {
            r.forget(xid);
            return null;
        });
    }

    @Override
    public Xid[] recover(int flag) throws XAException {
        return onWorkingResource(r -> r.recover(flag));
    }

    /**
     * Runs a call on the connection's own resource while it is usable, else, or when the connection turns out to be
     * lost ({@code XAER_RMFAIL}), on the recovery resource. A prepared branch outlives its connection, so it is listed
     * and completed there; a branch that was not prepared died with its connection, and the recovery resource answers
     * {@code XAER_NOTA}, which a transaction manager takes as rolled back.
     */
    private <T> T onWorkingResource(Call<T> call) throws XAException {
        if (!connectionUsable.getAsBoolean()) {
            return call.on(recovery.get());
        }
        try {
            return call.on(delegate());
        } catch (XAException e) {
            if (e.errorCode != XAException.XAER_RMFAIL) {
                throw e;
            }
            return call.on(recovery.get());
        }
    }

    /** One call on a resource. */
    @FunctionalInterface
    private interface Call<T> {
        T on(XAResource resource) throws XAException;
    }
}
