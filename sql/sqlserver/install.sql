-- ssb-jca on native SQL Server Service Broker: the adapter's own tables (schema ssb).
-- Queues, services, conversations and messages are SQL Server's own; the adapter adds only conversation group
-- priorities, failed-delivery counts and dead letters. Same tables and columns as sql/portable/install.sql, in SQL Server
-- types. Idempotent: every batch checks the catalog first, so the script is safe to run again.
-- Batches are separated by GO lines (sqlcmd, SSMS, or the adapter's own script runner).
-- On SQL Server the adapter never runs this script itself (unlike the portable schema, which it creates at start
-- unless createSchema is false): an administrator runs it once, with DDL rights; grant-role.sql then grants the
-- adapter's login what it needs. The test kit runs it through SqlServerBroker.installSchema.
--
-- Prerequisites, done once by an administrator (not by this script):
--  1. Service Broker enabled in the database. It needs exclusive access, hence ROLLBACK IMMEDIATE:
--       ALTER DATABASE [YourDatabase] SET ENABLE_BROKER WITH ROLLBACK IMMEDIATE;
--     https://learn.microsoft.com/sql/t-sql/statements/alter-database-transact-sql-set-options
--     https://learn.microsoft.com/sql/database-engine/service-broker/how-to-activate-service-broker-message-delivery-in-databases-transact-sql
--  2. XA transactions (container-managed transactions, message-driven beans):
--     a. MS DTC running, with "Enable XA Transactions" checked (on Linux: MSDTC configured with mssql-conf);
--     b. the JDBC XA procedures installed in master. From SQL Server 2019 (CTP 2.0) they are in the engine:
--          EXEC sp_sqljdbc_xa_install;
--        before 2019: copy sqljdbc_xa.dll from the driver's xa folder to the instance's Binn folder and run the
--        driver's xa_install.sql as an administrator;
--     c. the adapter's login a user in master and a member of the SqlJDBCXAUser role:
--          USE master; CREATE USER [adapter_login] FOR LOGIN [adapter_login];
--          ALTER ROLE [SqlJDBCXAUser] ADD MEMBER [adapter_login];
--     https://learn.microsoft.com/sql/connect/jdbc/understanding-xa-transactions
--  3. Queues created WITH POISON_MESSAGE_HANDLING (STATUS = OFF): the adapter counts failed deliveries and moves
--     poison messages to ssb.dead_letter itself; SQL Server must not disable the queue after five rollbacks.
--     https://learn.microsoft.com/sql/t-sql/statements/create-queue-transact-sql
-- On Azure SQL Database (no Service Broker, no MS DTC) only table queues with beans without a container transaction
-- run: skip 1 to 3 and run this script for the tables.

IF SCHEMA_ID(N'ssb') IS NULL
    EXEC (N'CREATE SCHEMA [ssb] AUTHORIZATION [dbo]');
GO

IF OBJECT_ID(N'ssb.schema_version', N'U') IS NULL
    CREATE TABLE ssb.schema_version (
        version INT NOT NULL CONSTRAINT schema_version_pk PRIMARY KEY,
        installed_at DATETIMEOFFSET(7) NOT NULL CONSTRAINT schema_version_installed_at DEFAULT SYSDATETIMEOFFSET()
    );
GO

-- Conversation group priorities: the adapter's readers try the groups of a queue with the highest priority first, then
-- the earliest request, before they let SQL Server choose. The queue is the one of the group's endpoints, by schema
-- and name as in sys.service_queues. request_order grows with every request.
IF OBJECT_ID(N'ssb.conversation_priority', N'U') IS NULL
    CREATE TABLE ssb.conversation_priority (
        conversation_group_id UNIQUEIDENTIFIER NOT NULL CONSTRAINT conversation_priority_pk PRIMARY KEY,
        queue_schema SYSNAME NOT NULL,
        queue_name SYSNAME NOT NULL,
        priority INT NOT NULL CONSTRAINT conversation_priority_range CHECK (priority BETWEEN 0 AND 255),
        request_order BIGINT IDENTITY(1, 1) NOT NULL,
        requested_at DATETIMEOFFSET(7) NOT NULL
    );
GO

IF NOT EXISTS (SELECT 1 FROM sys.indexes
               WHERE object_id = OBJECT_ID(N'ssb.conversation_priority') AND name = N'conversation_priority_order')
    CREATE INDEX conversation_priority_order
        ON ssb.conversation_priority (queue_name, queue_schema, priority DESC, request_order);
GO

-- Failed deliveries per message, written in their own transaction so that they survive the rollback.
-- queue_name holds the queue as the application names it; NVARCHAR(517) fits [schema].[queue] with every ] doubled.
IF OBJECT_ID(N'ssb.delivery_attempt', N'U') IS NULL
    CREATE TABLE ssb.delivery_attempt (
        conversation_handle UNIQUEIDENTIFIER NOT NULL,
        message_sequence_number BIGINT NOT NULL,
        queue_name NVARCHAR(517) NOT NULL,
        attempts INT NOT NULL,
        last_error NVARCHAR(4000) NULL,
        last_attempt_at DATETIMEOFFSET(7) NOT NULL,
        CONSTRAINT delivery_attempt_pk PRIMARY KEY (conversation_handle, message_sequence_number)
    );
GO

-- Conversation groups held back after a failed delivery (an activation's redeliveryDelay): the readers' RECEIVE
-- skips a group until held_until. queue_name as in ssb.delivery_attempt. Added in version 2.
IF OBJECT_ID(N'ssb.conversation_hold', N'U') IS NULL
    CREATE TABLE ssb.conversation_hold (
        conversation_group_id UNIQUEIDENTIFIER NOT NULL CONSTRAINT conversation_hold_pk PRIMARY KEY,
        queue_name NVARCHAR(517) NOT NULL,
        held_until DATETIMEOFFSET(7) NOT NULL
    );
GO

IF NOT EXISTS (SELECT 1 FROM sys.indexes
               WHERE object_id = OBJECT_ID(N'ssb.conversation_hold') AND name = N'conversation_hold_queue')
    CREATE INDEX conversation_hold_queue ON ssb.conversation_hold (queue_name, held_until);
GO

-- Messages taken off their queue after too many failed deliveries. Column types follow RECEIVE's queue columns.
IF OBJECT_ID(N'ssb.dead_letter', N'U') IS NULL
    CREATE TABLE ssb.dead_letter (
        dead_letter_id BIGINT IDENTITY(1, 1) NOT NULL CONSTRAINT dead_letter_pk PRIMARY KEY,
        queue_name NVARCHAR(517) NOT NULL,
        conversation_group_id UNIQUEIDENTIFIER NULL,
        conversation_handle UNIQUEIDENTIFIER NOT NULL,
        conversation_id UNIQUEIDENTIFIER NULL,
        message_sequence_number BIGINT NOT NULL,
        message_type_name NVARCHAR(256) NOT NULL,
        service_name NVARCHAR(512) NULL,
        service_contract_name NVARCHAR(256) NULL,
        message_body VARBINARY(MAX) NULL,
        enqueued_at DATETIMEOFFSET(7) NULL,
        attempts INT NOT NULL,
        last_error NVARCHAR(4000) NULL,
        dead_lettered_at DATETIMEOFFSET(7) NOT NULL
    );
GO

IF NOT EXISTS (SELECT 1 FROM sys.indexes
               WHERE object_id = OBJECT_ID(N'ssb.dead_letter') AND name = N'dead_letter_queue')
    CREATE INDEX dead_letter_queue ON ssb.dead_letter (queue_name, dead_letter_id);
GO

-- Version 4, dead letters: the conversation id of the dialog that carried a dead letter's copy to the activation's
-- deadLetterService (NULL when none was sent), so that the copy the service receives joins its row here.
-- https://learn.microsoft.com/sql/t-sql/functions/col-length-transact-sql
IF COL_LENGTH(N'ssb.dead_letter', N'copy_conversation_id') IS NULL
    ALTER TABLE ssb.dead_letter ADD copy_conversation_id UNIQUEIDENTIFIER NULL;
GO

-- Scheduled sends (added in version 3): ServiceBrokerConnection.sendAt and send with a delay, and any T-SQL, call
-- ssb.schedule_send, which stores the message here and sets a conversation timer on a dialog of its own (timer_handle,
-- service ssb/ScheduledSend). When the timer expires SQL Server puts a DialogTimer on ssb.ScheduledSendQueue, whose
-- activation procedure ssb.send_scheduled RECEIVEs it, deletes the row and SENDs the message on its conversation, in
-- one transaction: each scheduled send is sent once, by the database, whatever the number of servers. Cancelling is
-- deleting the row (its timer then finds nothing to send).
-- https://learn.microsoft.com/sql/t-sql/statements/begin-conversation-timer-transact-sql
IF OBJECT_ID(N'ssb.scheduled_send', N'U') IS NULL
    CREATE TABLE ssb.scheduled_send (
        scheduled_id UNIQUEIDENTIFIER NOT NULL CONSTRAINT scheduled_send_pk PRIMARY KEY,
        timer_handle UNIQUEIDENTIFIER NOT NULL CONSTRAINT scheduled_send_timer UNIQUE,
        conversation_handle UNIQUEIDENTIFIER NOT NULL,
        message_type_name NVARCHAR(256) NOT NULL,
        message_body VARBINARY(MAX) NULL,
        due_at DATETIMEOFFSET(7) NOT NULL,
        scheduled_at DATETIMEOFFSET(7) NOT NULL
    );
GO

IF NOT EXISTS (SELECT 1 FROM sys.service_queues WHERE name = N'ScheduledSendQueue' AND schema_id = SCHEMA_ID(N'ssb'))
    CREATE QUEUE ssb.ScheduledSendQueue WITH POISON_MESSAGE_HANDLING (STATUS = OFF);
GO

IF NOT EXISTS (SELECT 1 FROM sys.services WHERE name = N'ssb/ScheduledSend')
    CREATE SERVICE [ssb/ScheduledSend] ON QUEUE ssb.ScheduledSendQueue ([DEFAULT]);
GO

IF OBJECT_ID(N'ssb.schedule_send', N'P') IS NULL
    EXEC (N'CREATE PROCEDURE ssb.schedule_send AS RETURN 0;');
GO

-- Schedules a SEND in the caller's transaction. @due_at, or else @delay_ms from now; the message is sent no earlier
-- (the timer is set to the whole seconds that cover it, at least 1). Refuses a conversation that cannot send.
ALTER PROCEDURE ssb.schedule_send
    @conversation_handle UNIQUEIDENTIFIER,
    @message_type_name NVARCHAR(256),
    @message_body VARBINARY(MAX),
    @due_at DATETIMEOFFSET(7),
    @delay_ms BIGINT,
    @scheduled_id UNIQUEIDENTIFIER OUTPUT
WITH EXECUTE AS OWNER
AS
BEGIN
    SET NOCOUNT ON;
    IF NOT EXISTS (SELECT 1 FROM sys.conversation_endpoints
                   WHERE conversation_handle = @conversation_handle AND state IN ('SO', 'SI', 'CO'))
        THROW 50300, N'scheduled SEND: the conversation does not exist or cannot send', 1;
    DECLARE @now DATETIMEOFFSET(7) = SYSDATETIMEOFFSET();
    IF @due_at IS NULL
        SET @due_at = DATEADD(MILLISECOND, @delay_ms % 1000, DATEADD(SECOND, @delay_ms / 1000, @now));
    DECLARE @ms BIGINT = DATEDIFF_BIG(MILLISECOND, @now, @due_at);
    DECLARE @seconds INT = CASE WHEN @ms <= 1000 THEN 1 ELSE CAST((@ms + 999) / 1000 AS INT) END;
    DECLARE @timer UNIQUEIDENTIFIER;
    BEGIN DIALOG @timer FROM SERVICE [ssb/ScheduledSend] TO SERVICE N'ssb/ScheduledSend', N'CURRENT DATABASE'
        ON CONTRACT [DEFAULT] WITH ENCRYPTION = OFF;
    BEGIN CONVERSATION TIMER (@timer) TIMEOUT = @seconds;
    SET @scheduled_id = NEWID();
    INSERT INTO ssb.scheduled_send (scheduled_id, timer_handle, conversation_handle, message_type_name, message_body,
        due_at, scheduled_at)
    VALUES (@scheduled_id, @timer, @conversation_handle, @message_type_name, @message_body, @due_at, @now);
END;
GO

IF OBJECT_ID(N'ssb.send_scheduled', N'P') IS NULL
    EXEC (N'CREATE PROCEDURE ssb.send_scheduled AS RETURN 0;');
GO

-- The activation procedure of ssb.ScheduledSendQueue: for each DialogTimer, in one transaction, deletes its scheduled
-- send, SENDs it (a SEND that fails, on a conversation ended meanwhile, drops it) and ends the timer's dialog.
ALTER PROCEDURE ssb.send_scheduled
WITH EXECUTE AS OWNER
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT OFF;
    DECLARE @timer UNIQUEIDENTIFIER, @type NVARCHAR(256), @id UNIQUEIDENTIFIER, @handle UNIQUEIDENTIFIER,
        @message_type NVARCHAR(256), @body VARBINARY(MAX), @sql NVARCHAR(MAX), @doomed BIT;
    DECLARE @row TABLE (scheduled_id UNIQUEIDENTIFIER, conversation_handle UNIQUEIDENTIFIER,
        message_type_name NVARCHAR(256), message_body VARBINARY(MAX));
    WHILE 1 = 1
    BEGIN
        BEGIN TRANSACTION;
        WAITFOR (RECEIVE TOP (1) @timer = conversation_handle, @type = message_type_name
            FROM ssb.ScheduledSendQueue), TIMEOUT 1000;
        IF @@ROWCOUNT = 0
        BEGIN
            ROLLBACK TRANSACTION;
            BREAK;
        END;
        SELECT @id = NULL, @doomed = 0;
        DELETE FROM @row;
        IF @type = N'http://schemas.microsoft.com/SQL/ServiceBroker/DialogTimer'
        BEGIN
            DELETE FROM ssb.scheduled_send
                OUTPUT deleted.scheduled_id, deleted.conversation_handle, deleted.message_type_name,
                    deleted.message_body INTO @row
                WHERE timer_handle = @timer;
            SELECT @id = scheduled_id, @handle = conversation_handle, @message_type = message_type_name,
                @body = message_body FROM @row;
        END;
        IF @id IS NOT NULL
        BEGIN
            SET @sql = N'SEND ON CONVERSATION @h MESSAGE TYPE [' + REPLACE(@message_type, N']', N']]') + N']'
                + CASE WHEN DATALENGTH(@body) > 0 THEN N' (@b);' ELSE N';' END;
            BEGIN TRY
                EXEC sp_executesql @sql, N'@h UNIQUEIDENTIFIER, @b VARBINARY(MAX)', @h = @handle, @b = @body;
            END TRY
            BEGIN CATCH
                SET @doomed = CASE WHEN XACT_STATE() = -1 THEN 1 ELSE 0 END;
            END CATCH;
        END;
        IF @doomed = 1
        BEGIN
            -- the failed SEND left the transaction uncommittable: drop the scheduled send in a new one
            ROLLBACK TRANSACTION;
            BEGIN TRANSACTION;
            DELETE FROM ssb.scheduled_send WHERE scheduled_id = @id;
        END;
        END CONVERSATION @timer WITH CLEANUP;
        COMMIT TRANSACTION;
    END;
END;
GO

IF EXISTS (SELECT 1 FROM sys.service_queues WHERE name = N'ScheduledSendQueue' AND schema_id = SCHEMA_ID(N'ssb')
           AND (is_activation_enabled = 0 OR activation_procedure IS NULL))
    ALTER QUEUE ssb.ScheduledSendQueue WITH ACTIVATION (STATUS = ON, PROCEDURE_NAME = ssb.send_scheduled,
        MAX_QUEUE_READERS = 1, EXECUTE AS OWNER);
GO

-- Version 5, trace context (docs/guide/tracing.md): a RECEIVE cannot return a column its queue does not have, so the
-- W3C trace context a message carries is a row here, keyed as Service Broker numbers the message: the conversation
-- (conversation_id, the same at both endpoints), the direction (sent_by_initiator: is_initiator of the sending
-- endpoint, as conversation_id and is_initiator together are unique in a database) and the message's
-- message_sequence_number. A sender writes it in the SEND's transaction (ssb.send_traced); the adapter's RECEIVE
-- deletes it in the RECEIVE's transaction, so a rollback gives both back.
-- https://learn.microsoft.com/sql/relational-databases/system-catalog-views/sys-conversation-endpoints-transact-sql
IF OBJECT_ID(N'ssb.message_trace', N'U') IS NULL
    CREATE TABLE ssb.message_trace (
        conversation_id UNIQUEIDENTIFIER NOT NULL,
        sent_by_initiator BIT NOT NULL,
        message_sequence_number BIGINT NOT NULL,
        trace_context VARCHAR(1024) NOT NULL,
        CONSTRAINT message_trace_pk PRIMARY KEY (conversation_id, sent_by_initiator, message_sequence_number)
    );
GO

IF OBJECT_ID(N'ssb.send_traced', N'P') IS NULL
    EXEC (N'CREATE PROCEDURE ssb.send_traced AS RETURN 0;');
GO

-- SEND ON CONVERSATION with the W3C trace context of the sender's span (traceparent, then a space and tracestate when
-- there is one; NULL: a plain SEND). The SEND comes first: it locks the conversation group, so no other transaction
-- sends on the conversation before this one ends, and the number it gave the message is the endpoint's send_sequence
-- ("next message number in the send sequence") less one. Runs in the caller's transaction, or in one of its own when
-- there is none, so that no reader receives the message before its row commits. Not EXECUTE AS: the SEND is the
-- caller's, with the caller's permissions.
-- https://learn.microsoft.com/sql/t-sql/statements/send-transact-sql
ALTER PROCEDURE ssb.send_traced
    @conversation_handle UNIQUEIDENTIFIER,
    @message_type_name NVARCHAR(256),
    @message_body VARBINARY(MAX),
    @trace_context VARCHAR(1024)
AS
BEGIN
    SET NOCOUNT ON;
    -- a NULL name would make @sql NULL, which sp_executesql runs as nothing: no SEND, and a row for the last message
    IF @message_type_name IS NULL
        THROW 50301, N'ssb.send_traced: @message_type_name must not be NULL', 1;
    DECLARE @sql NVARCHAR(MAX) = N'SEND ON CONVERSATION @h MESSAGE TYPE ['
        + REPLACE(@message_type_name, N']', N']]') + N']'
        + CASE WHEN DATALENGTH(@message_body) > 0 THEN N' (@b);' ELSE N';' END;
    DECLARE @own_transaction BIT = CASE WHEN @@TRANCOUNT = 0 AND (@@OPTIONS & 2) = 0 THEN 1 ELSE 0 END;
    IF @own_transaction = 1
        BEGIN TRANSACTION;
    BEGIN TRY
        EXEC sp_executesql @sql, N'@h UNIQUEIDENTIFIER, @b VARBINARY(MAX)', @h = @conversation_handle,
            @b = @message_body;
        IF @trace_context IS NOT NULL
            INSERT INTO ssb.message_trace (conversation_id, sent_by_initiator, message_sequence_number, trace_context)
            SELECT e.conversation_id, e.is_initiator, e.send_sequence - 1, @trace_context
            FROM sys.conversation_endpoints AS e WITH (NOLOCK)
            WHERE e.conversation_handle = @conversation_handle;
        IF @own_transaction = 1
            COMMIT TRANSACTION;
    END TRY
    BEGIN CATCH
        IF @own_transaction = 1 AND @@TRANCOUNT > 0
            ROLLBACK TRANSACTION;
        THROW;
    END CATCH;
END;
GO

IF NOT EXISTS (SELECT 1 FROM ssb.schema_version WHERE version = 1)
    INSERT INTO ssb.schema_version (version) VALUES (1);
GO

IF NOT EXISTS (SELECT 1 FROM ssb.schema_version WHERE version = 2)
    INSERT INTO ssb.schema_version (version) VALUES (2);
GO

IF NOT EXISTS (SELECT 1 FROM ssb.schema_version WHERE version = 3)
    INSERT INTO ssb.schema_version (version) VALUES (3);
GO

IF NOT EXISTS (SELECT 1 FROM ssb.schema_version WHERE version = 4)
    INSERT INTO ssb.schema_version (version) VALUES (4);
GO

IF NOT EXISTS (SELECT 1 FROM ssb.schema_version WHERE version = 5)
    INSERT INTO ssb.schema_version (version) VALUES (5);
GO
