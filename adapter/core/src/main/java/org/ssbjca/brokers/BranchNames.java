package org.ssbjca.brokers;

import javax.transaction.xa.XAResource;
import org.ssbjca.backend.DatabaseConfig;

/**
 * How the XA resources of one database are presented to the transaction manager: the resource a reader enlists in
 * each delivery and the resource recovery scans. Without a transaction-manager integration the resources go as they
 * are ({@link #NONE}); with WildFly's transaction manager they carry the database's name, so that its recovery knows
 * which database a logged branch belongs to (see {@code org.ssbjca.adapter.narayana.NarayanaRecovery}).
 */
public interface BranchNames {

    /** Presents the resources as they are. */
    BranchNames NONE = (database, resource) -> resource;

    /**
     * Returns the resource to hand to the transaction manager.
     *
     * @param database the database the resource works on
     * @param resource the resource
     */
    XAResource name(DatabaseConfig database, XAResource resource);
}
