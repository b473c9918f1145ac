-- ssb-jca on native SQL Server Service Broker: the permissions the adapter's login needs, granted to a database role.
-- Run in the application database by its owner, after install.sql and after your own message types, contracts,
-- queues and services exist; then make the adapter's database user a member:
--     ALTER ROLE [ssb_adapter] ADD MEMBER [adapter_user];
-- Shown for the sample's echo objects (sample-install.sql): repeat each GRANT for every queue, service and contract
-- the adapter uses. GRANT is idempotent, so the script can run again.
-- https://learn.microsoft.com/sql/t-sql/statements/grant-object-permissions-transact-sql
-- https://learn.microsoft.com/sql/t-sql/statements/grant-service-broker-permissions-transact-sql
-- https://learn.microsoft.com/sql/t-sql/statements/grant-schema-permissions-transact-sql
--
-- Not grantable: END CONVERSATION and MOVE CONVERSATION need the conversation's owner (or db_owner, or sysadmin).
-- Run the adapter as the user that owns the services (ALTER AUTHORIZATION ON SERVICE::[EchoService] TO [adapter_user])
-- or that begins the dialogs. XA needs a user in master in the SqlJDBCXAUser role (see install.sql).

IF DATABASE_PRINCIPAL_ID(N'ssb_adapter') IS NULL
    CREATE ROLE [ssb_adapter];
GO

-- RECEIVE on each queue the adapter reads (RECEIVE, GET CONVERSATION GROUP) and on the queue of each service it
-- begins dialogs from or sends from (BEGIN DIALOG, SEND); SELECT to look into a queue without receiving (queue depth,
-- priority requests, pending groups, the prioritised groups).
GRANT RECEIVE, SELECT ON OBJECT::[dbo].[EchoServiceQueue] TO [ssb_adapter];
GRANT RECEIVE, SELECT ON OBJECT::[dbo].[EchoClientQueue] TO [ssb_adapter];
GO

-- SEND on each service dialogs are begun to (also what BEGIN CONVERSATION TIMER asks for).
GRANT SEND ON SERVICE::[EchoService] TO [ssb_adapter];
GO

-- REFERENCES on each contract dialogs are begun on.
GRANT REFERENCES ON CONTRACT::[EchoContract] TO [ssb_adapter];
GO

-- The adapter's own tables: priorities, failed deliveries, dead letters.
GRANT SELECT, INSERT, UPDATE, DELETE ON SCHEMA::[ssb] TO [ssb_adapter];
GO

-- scheduled sends (ServiceBrokerConnection.sendAt, send with a delay)
GRANT EXECUTE ON OBJECT::[ssb].[schedule_send] TO [ssb_adapter];
GO

-- SENDs that carry a trace context (docs/guide/tracing.md)
GRANT EXECUTE ON OBJECT::[ssb].[send_traced] TO [ssb_adapter];
GO

-- Catalog views show a user only the metadata of securables it owns or holds a permission on: the adapter reads
-- sys.conversation_endpoints, sys.services and sys.service_queues.
-- https://learn.microsoft.com/sql/relational-databases/security/metadata-visibility-configuration
GRANT VIEW DEFINITION TO [ssb_adapter];
GO
