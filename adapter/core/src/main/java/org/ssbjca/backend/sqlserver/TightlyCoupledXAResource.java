package org.ssbjca.backend.sqlserver;

import com.microsoft.sqlserver.jdbc.SQLServerXAResource;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import org.ssbjca.support.ForwardingXAResource;
import javax.transaction.xa.Xid;

/**
 * The XA resource of a SQL Server connection, with every branch started tightly coupled: {@link #start(Xid, int)}
 * adds {@link SQLServerXAResource#SSTRANSTIGHTLYCPLD} to the flags; everything else is delegated unchanged.
 *
 * <p>Why: the inbound reader receives a message in its own XA branch, and that RECEIVE holds the conversation group
 * lock until the global transaction ends. A message-driven bean that replies on the same conversation through the
 * outbound connection factory uses another connection, so the transaction manager enlists a second branch (same
 * global transaction id, another branch qualifier). Loosely coupled, that branch is a separate SQL Server
 * transaction: its SEND waits for the group lock the first branch holds, and the first branch waits for the bean to
 * return; the transaction times out. Tightly coupled branches of one global transaction share one MS DTC transaction
 * and see each other's work, so the SEND goes through.
 * https://learn.microsoft.com/sql/connect/jdbc/understanding-xa-transactions and
 * https://learn.microsoft.com/sql/connect/jdbc/reference/sstranstightlycpld-field-sqlserverxaresource
 *
 * <p>The flag is added to every start, TMJOIN and TMRESUME included: mssql-jdbc records it at each start and uses it
 * again at prepare and commit, so a start without it would leave the branch loosely coupled.
 */
public final class TightlyCoupledXAResource extends ForwardingXAResource {

    /** @param delegate the driver's XA resource */
    public TightlyCoupledXAResource(XAResource delegate) {
        super(delegate);
    }

    @Override
    public void start(Xid xid, int flags) throws XAException {
        delegate().start(xid, flags | SQLServerXAResource.SSTRANSTIGHTLYCPLD);
    }

    @Override
    public String toString() {
        return "TightlyCoupled[" + delegate() + "]";
    }
}
