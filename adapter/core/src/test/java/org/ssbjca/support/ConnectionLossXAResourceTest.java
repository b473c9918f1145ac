package org.ssbjca.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.sql.SQLException;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import org.junit.jupiter.api.Test;

/** Which driver errors become {@code XAER_RMFAIL}. */
class ConnectionLossXAResourceTest {

    private final ConnectionLossXAResource resource = new ConnectionLossXAResource(new NoResource(),
            e -> "08006".equals(e.getSQLState()) || "57P01".equals(e.getSQLState()));

    @Test
    void anRmerrCausedByTheServerEndingTheSessionBecomesRmfail() {
        XAException driver = driverError(XAException.XAER_RMERR, new SQLException("terminating connection", "57P01"));
        XAException out = resource.translated(driver);
        assertEquals(XAException.XAER_RMFAIL, out.errorCode);
        assertSame(driver, out.getCause());
        assertEquals(driver.getMessage(), out.getMessage());
    }

    @Test
    void aLostConnectionFurtherDownTheChainCounts() {
        SQLException wrapped = new SQLException("statement failed", "XX000");
        wrapped.setNextException(new SQLException("I/O error", "08006"));
        XAException out = resource.translated(driverError(XAException.XAER_RMERR,
                new IllegalStateException(wrapped)));
        assertEquals(XAException.XAER_RMFAIL, out.errorCode);
    }

    @Test
    void otherDatabaseErrorsStayRmerr() {
        XAException driver = driverError(XAException.XAER_RMERR, new SQLException("duplicate key", "23505"));
        assertSame(driver, resource.translated(driver));
    }

    @Test
    void otherCodesArePassedOnUnchanged() {
        XAException nota = driverError(XAException.XAER_NOTA, new SQLException("gone", "08006"));
        XAException rb = driverError(XAException.XA_RBROLLBACK, new SQLException("gone", "57P01"));
        assertSame(nota, resource.translated(nota));
        assertSame(rb, resource.translated(rb));
    }

    @Test
    void anRmerrWithoutACauseStaysRmerr() {
        XAException driver = new XAException(XAException.XAER_RMERR);
        assertSame(driver, resource.translated(driver));
    }

    private static XAException driverError(int code, Throwable cause) {
        XAException e = new XAException("driver: " + code);
        e.errorCode = code;
        e.initCause(cause);
        return e;
    }

    /** Never called: the tests exercise the translation only. */
    private static final class NoResource implements XAResource {
        @Override
        public void commit(javax.transaction.xa.Xid xid, boolean onePhase) {
        }

        @Override
        public void end(javax.transaction.xa.Xid xid, int flags) {
        }

        @Override
        public void forget(javax.transaction.xa.Xid xid) {
        }

        @Override
        public int getTransactionTimeout() {
            return 0;
        }

        @Override
        public boolean isSameRM(XAResource other) {
            return other == this;
        }

        @Override
        public int prepare(javax.transaction.xa.Xid xid) {
            return XA_OK;
        }

        @Override
        public javax.transaction.xa.Xid[] recover(int flag) {
            return new javax.transaction.xa.Xid[0];
        }

        @Override
        public void rollback(javax.transaction.xa.Xid xid) {
        }

        @Override
        public boolean setTransactionTimeout(int seconds) {
            return true;
        }

        @Override
        public void start(javax.transaction.xa.Xid xid, int flags) {
        }
    }
}
