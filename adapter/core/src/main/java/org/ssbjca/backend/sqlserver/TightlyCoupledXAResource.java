package org.ssbjca.backend.sqlserver;

import com.microsoft.sqlserver.jdbc.SQLServerXAResource;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.ssbjca.support.AdapterLog;
import org.ssbjca.support.ForwardingXAResource;

/**
 * The XA resource of a SQL Server connection, with every branch started tightly coupled: {@link #start(Xid, int)}
 * adds {@link SQLServerXAResource#SSTRANSTIGHTLYCPLD} to the flags; everything else is delegated, with two
 * exceptions for what mssql-jdbc does with tightly coupled branches (below).
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
 * again at prepare and commit, so a start without it would leave the branch loosely coupled. A driver resource that
 * never starts a branch (the transaction manager's recovery resource, which only lists and completes prepared
 * branches) would complete them loosely coupled, so the wrapper sets the driver's record of the flag when it wraps
 * the resource (the driver offers no method for it; where its field cannot be set, SSBJCA0190 is logged).
 *
 * <p>Once a branch of a global transaction has voted {@code XA_RDONLY} at prepare, mssql-jdbc refuses the one-phase
 * commit of another tightly coupled branch of it with {@code XAER_PROTO} (https://github.com/microsoft/mssql-jdbc/issues/1551).
 * Such a commit is made in two phases here: prepare, then, unless that votes read-only too, commit. Read-only votes
 * are remembered per global transaction id in this JVM until a branch of it commits or rolls back, at most
 * {@value #READ_ONLY_VOTE_MINUTES} minutes. Thread-safe.
 */
public final class TightlyCoupledXAResource extends ForwardingXAResource {

    private static final AdapterLog LOG = AdapterLog.of(TightlyCoupledXAResource.class);
    /** How long a read-only vote is remembered when no branch of its transaction completes. */
    static final long READ_ONLY_VOTE_MINUTES = 60;
    /** Global transactions with a branch that voted read-only, and when (System.nanoTime()). */
    private static final Map<GlobalId, Long> READ_ONLY_VOTES = new ConcurrentHashMap<>();

    /** @param delegate the driver's XA resource */
    public TightlyCoupledXAResource(XAResource delegate) {
        super(delegate);
        markTightlyCoupled(delegate);
    }

    @Override
    public void start(Xid xid, int flags) throws XAException {
        delegate().start(xid, flags | SQLServerXAResource.SSTRANSTIGHTLYCPLD);
    }

    @Override
    public int prepare(Xid xid) throws XAException {
        int vote = delegate().prepare(xid);
        if (vote == XA_RDONLY) {
            long now = System.nanoTime();
            READ_ONLY_VOTES.values().removeIf(at -> now - at > TimeUnit.MINUTES.toNanos(READ_ONLY_VOTE_MINUTES));
            READ_ONLY_VOTES.put(new GlobalId(xid), now);
        }
        return vote;
    }

    @Override
    public void commit(Xid xid, boolean onePhase) throws XAException {
        if (onePhase && READ_ONLY_VOTES.remove(new GlobalId(xid)) != null) {
            if (delegate().prepare(xid) != XA_RDONLY) {
                delegate().commit(xid, false);
            }
            return;
        }
        READ_ONLY_VOTES.remove(new GlobalId(xid));
        delegate().commit(xid, onePhase);
    }

    @Override
    public void rollback(Xid xid) throws XAException {
        READ_ONLY_VOTES.remove(new GlobalId(xid));
        delegate().rollback(xid);
    }

    /** Sets mssql-jdbc's record of SSTRANSTIGHTLYCPLD, which only its start() sets otherwise. */
    private static void markTightlyCoupled(XAResource delegate) {
        if (!(delegate instanceof SQLServerXAResource)) {
            return;
        }
        try {
            Field f = SQLServerXAResource.class.getDeclaredField("tightlyCoupled");
            f.setAccessible(true);
            f.setInt(delegate, SQLServerXAResource.SSTRANSTIGHTLYCPLD);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.tightCouplingNotMarked(e, delegate);
        }
    }

    @Override
    public String toString() {
        return "TightlyCoupled[" + delegate() + "]";
    }

    /** A global transaction id: format and gtrid, whatever the branch. */
    private record GlobalId(int format, ByteBuffer gtrid) {
        GlobalId(Xid xid) {
            this(xid.getFormatId(), ByteBuffer.wrap(xid.getGlobalTransactionId()));
        }
    }
}
