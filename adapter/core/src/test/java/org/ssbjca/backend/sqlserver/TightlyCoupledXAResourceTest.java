package org.ssbjca.backend.sqlserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.sqlserver.jdbc.SQLServerXAResource;
import java.util.List;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.Test;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.fakes.RecordingXAResource;
import org.ssbjca.support.ConnectionLossXAResource;

class TightlyCoupledXAResourceTest {

    /** The documented value of SSTRANSTIGHTLYCPLD. */
    private static final int TIGHTLY_COUPLED = 0x8000;

    private static final Xid XID = RecordingXAResource.XID;

    @Test
    void theDriverConstantIsTheDocumentedOne() {
        assertEquals(TIGHTLY_COUPLED, SQLServerXAResource.SSTRANSTIGHTLYCPLD);
    }

    @Test
    void everyStartIsTightlyCoupledAndNoOtherFlagIsLost() throws Exception {
        RecordingXAResource driver = new RecordingXAResource();
        XAResource xa = new TightlyCoupledXAResource(driver);
        xa.start(XID, XAResource.TMNOFLAGS);
        xa.start(XID, XAResource.TMJOIN);
        xa.start(XID, XAResource.TMRESUME);
        assertEquals(List.of("start " + TIGHTLY_COUPLED, "start " + (XAResource.TMJOIN | TIGHTLY_COUPLED),
                "start " + (XAResource.TMRESUME | TIGHTLY_COUPLED)), driver.calls);
    }

    @Test
    void everythingElseIsDelegatedUnchanged() throws Exception {
        RecordingXAResource driver = new RecordingXAResource();
        XAResource xa = new TightlyCoupledXAResource(driver);
        xa.end(XID, XAResource.TMSUCCESS);
        assertEquals(XAResource.XA_OK, xa.prepare(XID));
        xa.commit(XID, true);
        xa.rollback(XID);
        xa.forget(XID);
        assertSame(XID, xa.recover(XAResource.TMSTARTRSCAN)[0]);
        assertTrue(xa.setTransactionTimeout(30));
        assertEquals(17, xa.getTransactionTimeout());
        assertEquals(List.of("end " + XAResource.TMSUCCESS, "prepare", "commit true", "rollback", "forget",
                "recover " + XAResource.TMSTARTRSCAN, "timeout 30"), driver.calls);
    }

    /**
     * mssql-jdbc issue 1551: with SSTRANSTIGHTLYCPLD, once one branch of a global transaction voted XA_RDONLY at
     * prepare, the driver refuses the one-phase commit of another branch of it (XAER_PROTO). The double refuses as
     * the issue reports; the wrapper must prepare and commit that branch in two phases instead.
     */
    @Test
    void aOnePhaseCommitAfterAnotherBranchVotedReadOnlyIsCommittedInTwoPhases() throws Exception {
        byte[] gtrid = ("issue-1551-" + java.util.UUID.randomUUID()).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        RecordingXAResource first = new RecordingXAResource();
        first.prepareVote = XAResource.XA_RDONLY;
        RecordingXAResource second = new RecordingXAResource();
        second.failOnePhaseCommit = new javax.transaction.xa.XAException(javax.transaction.xa.XAException.XAER_PROTO);
        XAResource a = new TightlyCoupledXAResource(first);
        XAResource b = new TightlyCoupledXAResource(second);
        assertEquals(XAResource.XA_RDONLY, a.prepare(branch(gtrid, 1)));
        b.commit(branch(gtrid, 2), true);
        assertEquals(List.of("prepare", "commit false"), second.calls);
        // another transaction's one-phase commit is left as it is
        RecordingXAResource third = new RecordingXAResource();
        new TightlyCoupledXAResource(third).commit(RecordingXAResource.XID, true);
        assertEquals(List.of("commit true"), third.calls);
    }

    @Test
    void aOnePhaseCommitThatPreparesReadOnlyIsNotCommittedAgain() throws Exception {
        byte[] gtrid = ("issue-1551-" + java.util.UUID.randomUUID()).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        RecordingXAResource first = new RecordingXAResource();
        first.prepareVote = XAResource.XA_RDONLY;
        RecordingXAResource second = new RecordingXAResource();
        second.prepareVote = XAResource.XA_RDONLY;
        new TightlyCoupledXAResource(first).prepare(branch(gtrid, 1));
        new TightlyCoupledXAResource(second).commit(branch(gtrid, 2), true);
        assertEquals(List.of("prepare"), second.calls, "a read-only branch has nothing left to commit");
    }

    /**
     * mssql-jdbc keeps SSTRANSTIGHTLYCPLD in a field of its XA resource that only start() sets, and adds it to
     * prepare, commit, rollback, forget and recover: a fresh resource that completes a branch at recovery (it never
     * started one) would call the loosely coupled procedures. The wrapper sets the driver's field at once.
     */
    @Test
    void aFreshDriverResourceUsedOnlyForRecoveryIsTightlyCoupled() throws Exception {
        SQLServerXAResource driver = allocateWithoutConstructor(SQLServerXAResource.class);
        java.lang.reflect.Field field = SQLServerXAResource.class.getDeclaredField("tightlyCoupled");
        field.setAccessible(true);
        assertEquals(0, field.getInt(driver), "a fresh driver resource starts loosely coupled");
        new TightlyCoupledXAResource(driver);
        assertEquals(TIGHTLY_COUPLED, field.getInt(driver));
    }

    private static <T> T allocateWithoutConstructor(Class<T> type) throws Exception {
        java.lang.reflect.Field f = Class.forName("sun.misc.Unsafe").getDeclaredField("theUnsafe");
        f.setAccessible(true);
        Object unsafe = f.get(null);
        return type.cast(unsafe.getClass().getMethod("allocateInstance", Class.class).invoke(unsafe, type));
    }

    private static Xid branch(byte[] gtrid, int qualifier) {
        return new Xid() {
            @Override
            public int getFormatId() {
                return 4712;
            }

            @Override
            public byte[] getGlobalTransactionId() {
                return gtrid.clone();
            }

            @Override
            public byte[] getBranchQualifier() {
                return new byte[] {(byte) qualifier};
            }
        };
    }

    @Test
    void isSameRmUnwrapsAPeerWrapper() throws Exception {
        RecordingXAResource driver = new RecordingXAResource();
        RecordingXAResource other = new RecordingXAResource();
        driver.sameAs = other;
        XAResource xa = new TightlyCoupledXAResource(driver);
        assertTrue(xa.isSameRM(new TightlyCoupledXAResource(other)));
        assertTrue(xa.isSameRM(other));
        assertFalse(xa.isSameRM(new TightlyCoupledXAResource(new RecordingXAResource())));
    }

    @Test
    void theBrokerWrapsOnce() {
        SqlServerBroker broker = new SqlServerBroker(new ConnectionSource(
                new DatabaseConfig("jdbc:sqlserver://localhost;databaseName=x", "sa", "secret")),
                BackgroundRunner.daemonThreads());
        RecordingXAResource driver = new RecordingXAResource();
        XAResource wrapped = broker.xaResource(driver);
        XAResource tight = ((ConnectionLossXAResource) wrapped).delegate();
        assertSame(driver, ((TightlyCoupledXAResource) tight).delegate());
        assertSame(wrapped, broker.xaResource(wrapped));
    }
}
