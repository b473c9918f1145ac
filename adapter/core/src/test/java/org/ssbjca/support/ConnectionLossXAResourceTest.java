package org.ssbjca.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.sql.SQLException;
import javax.transaction.xa.XAException;
import org.junit.jupiter.api.Test;
import org.ssbjca.fakes.RecordingXAResource;

/** Which driver errors become {@code XAER_RMFAIL}. */
class ConnectionLossXAResourceTest {

    private final ConnectionLossXAResource resource = new ConnectionLossXAResource(new RecordingXAResource(),
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
}
