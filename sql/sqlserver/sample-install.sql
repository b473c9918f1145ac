-- The walking-skeleton sample's Service Broker objects: a client service sends EchoRequest to EchoService, which
-- replies EchoReply. Idempotent: every object is created only when the catalog does not have it. Run it after
-- install.sql, in a database with Service Broker enabled. Batches are separated by GO lines.
-- https://learn.microsoft.com/sql/t-sql/statements/create-message-type-transact-sql
-- https://learn.microsoft.com/sql/t-sql/statements/create-contract-transact-sql
-- https://learn.microsoft.com/sql/t-sql/statements/create-queue-transact-sql
-- https://learn.microsoft.com/sql/t-sql/statements/create-service-transact-sql

IF NOT EXISTS (SELECT 1 FROM sys.service_message_types WHERE name = N'EchoRequest')
    CREATE MESSAGE TYPE [EchoRequest] VALIDATION = NONE;
GO

IF NOT EXISTS (SELECT 1 FROM sys.service_message_types WHERE name = N'EchoReply')
    CREATE MESSAGE TYPE [EchoReply] VALIDATION = NONE;
GO

IF NOT EXISTS (SELECT 1 FROM sys.service_contracts WHERE name = N'EchoContract')
    CREATE CONTRACT [EchoContract] ([EchoRequest] SENT BY INITIATOR, [EchoReply] SENT BY TARGET);
GO

-- Poison message handling off: the adapter dead-letters poison messages itself.
IF NOT EXISTS (SELECT 1 FROM sys.service_queues WHERE object_id = OBJECT_ID(N'[dbo].[EchoClientQueue]'))
    CREATE QUEUE [dbo].[EchoClientQueue] WITH STATUS = ON, RETENTION = OFF, POISON_MESSAGE_HANDLING (STATUS = OFF);
GO

IF NOT EXISTS (SELECT 1 FROM sys.service_queues WHERE object_id = OBJECT_ID(N'[dbo].[EchoServiceQueue]'))
    CREATE QUEUE [dbo].[EchoServiceQueue] WITH STATUS = ON, RETENTION = OFF, POISON_MESSAGE_HANDLING (STATUS = OFF);
GO

-- No contract: the client service only initiates dialogs.
IF NOT EXISTS (SELECT 1 FROM sys.services WHERE name = N'EchoClientService')
    CREATE SERVICE [EchoClientService] ON QUEUE [dbo].[EchoClientQueue];
GO

IF NOT EXISTS (SELECT 1 FROM sys.services WHERE name = N'EchoService')
    CREATE SERVICE [EchoService] ON QUEUE [dbo].[EchoServiceQueue] ([EchoContract]);
GO
