package org.ssbjca.management;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import org.ssbjca.backend.table.TableCounts;
import org.ssbjca.inbound.table.TableActivation;

/** The MBean of one table activation ({@link TableActivationMXBean}). */
final class TableActivationManagement extends BreakerAttributes implements TableActivationMXBean {

    private final TableActivation activation;

    TableActivationManagement(TableActivation activation) {
        super(activation.breaker());
        this.activation = activation;
    }

    private TableCounts counts() {
        try {
            return activation.counts();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the table of " + activation.name() + ": " + e.getMessage());
        }
    }

    @Override
    public String getTable() {
        return activation.table();
    }

    @Override
    public String getMode() {
        return activation.mode();
    }

    @Override
    public int getReaderCount() {
        return activation.readerCount();
    }

    @Override
    public int getWaitingReaders() {
        return activation.waitingReaders();
    }

    @Override
    public long getAvailableRows() {
        return counts().available();
    }

    @Override
    public long getWaitingRows() {
        return counts().waiting();
    }

    @Override
    public long getLeasedRows() {
        return counts().leased();
    }

    @Override
    public long getSetAsideRows() {
        return counts().setAside();
    }

    @Override
    public long getUnscheduledRows() {
        return counts().unscheduled();
    }

    @Override
    public long getOldestAvailableAgeSeconds() {
        Duration age = counts().oldestAge();
        return age == null ? -1 : Math.max(0, age.toSeconds());
    }

    @Override
    public long getDeliveredRows() {
        return activation.deliveredRows();
    }

    @Override
    public long getFailedDeliveries() {
        return activation.failedDeliveries();
    }

    @Override
    public long getLeasesLost() {
        return activation.leasesLost();
    }

    @Override
    public Date getFailingSince() {
        Instant since = activation.failingSince();
        return since == null ? null : Date.from(since);
    }

    @Override
    public Date getDeliveriesFailingSince() {
        Instant since = activation.deliveriesFailingSince();
        return since == null ? null : Date.from(since);
    }

    @Override
    public String getLastError() {
        return activation.lastError();
    }

    @Override
    public int redeliverSetAside() {
        try {
            return activation.redeliverSetAside();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot redeliver the set-aside rows of " + activation.name() + ": "
                    + e.getMessage());
        }
    }

    @Override
    public int purgeSetAside() {
        try {
            return activation.purgeSetAside();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot purge the set-aside rows of " + activation.name() + ": "
                    + e.getMessage());
        }
    }

}
