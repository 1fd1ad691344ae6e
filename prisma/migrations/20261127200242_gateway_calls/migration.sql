-- CreateTable
CREATE TABLE "GatewayCall" (
    "attemptId" TEXT NOT NULL,
    "tryNumber" INTEGER NOT NULL,
    "seq" INTEGER NOT NULL,
    "protocol" TEXT NOT NULL,
    "requestedModel" TEXT,
    "model" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "errorKind" TEXT,
    "streamed" BOOLEAN NOT NULL,
    "toolCalls" INTEGER NOT NULL,
    "toolResults" INTEGER NOT NULL,
    "inputTokens" INTEGER,
    "outputTokens" INTEGER,
    "reasoningTokens" INTEGER,
    "costUsd" DOUBLE PRECISION,
    "costEstimated" BOOLEAN NOT NULL,
    "gatewayMs" DOUBLE PRECISION NOT NULL,
    "providerMs" DOUBLE PRECISION NOT NULL,
    "hookMs" DOUBLE PRECISION NOT NULL,
    "retries" INTEGER NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "endedAt" TIMESTAMP(3) NOT NULL,
    "body" BYTEA NOT NULL,
    "bodyBytes" INTEGER NOT NULL,
    "cutBytes" INTEGER NOT NULL,

    CONSTRAINT "GatewayCall_pkey" PRIMARY KEY ("attemptId","tryNumber","seq")
);

-- AddForeignKey
ALTER TABLE "GatewayCall" ADD CONSTRAINT "GatewayCall_attemptId_tryNumber_fkey" FOREIGN KEY ("attemptId", "tryNumber") REFERENCES "AttemptTry"("attemptId", "tryNumber") ON DELETE CASCADE ON UPDATE CASCADE;

