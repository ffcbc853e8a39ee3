#pragma clang system_header /* its macros and bodies are the stub's, not the kernel's */
/* poolcheck_stub_machine.h - runtime, machine and simulation internals and the system tests' helpers.
 * Part of poolcheck_tilefwk_stub.h (stub mode), which includes it; not a header of its own.
 *
 * Upstream's machine tests (framework/tests/st/machine, ut/machine) drive a kernel through the
 * runtime after building it: a launcher config, the device program and its control-flow cache,
 * device tensors.  None of it is kernel work; it is declared, with the fields and members the
 * tests use, so that the test bodies around the kernels parse.  The headers they come from
 * (machine/runtime/..., machine/utils/dynamic/..., adapter/api/...) are stood in for by empty files
 * in stub/include/machine/. */
#ifndef POOLCHECK_STUB_MACHINE_H
#define POOLCHECK_STUB_MACHINE_H

namespace npu {
namespace tile_fwk {
/* ---- adapter/api: the CANN runtime and ACL calls tests make (runtime_define.h, acl_define.h) ---- */
using RtError = int32_t;
using RtStream = void *;
using AclError = int;
using AclRtStream = void *;
using AclMdlRI = void *;
enum class RtMemcpyKind {
    HOST_TO_HOST = 0, HOST_TO_DEVICE, DEVICE_TO_HOST, DEVICE_TO_DEVICE, MANAGED, ADDR_DEVICE_TO_DEVICE,
    HOST_TO_DEVICE_EX, DEVICE_TO_HOST_EX, DEFAULT, RESERVED
};
AclError AclInit(const char *configPath);
AclError AclRtCreateStream(AclRtStream *stream);
AclError AclRtDestroyStream(AclRtStream stream);
RtError RuntimeSetDevice(int32_t devId);
/* machine/runtime/runner/runtime_utils.h: a macro over the runtime's copy upstream */
RtError RuntimeMemcpy(void *dst, uint64_t destMax, const void *src, uint64_t count, RtMemcpyKind kind);

/* machine/runtime/context/stream_context.h */
class StreamContext {
public:
    RtStream &GetAiCoreStream();
    RtStream &GetScheStream();
    RtStream &GetCtrlStream();
};
StreamContext &GetStreamContext();

/* machine/runtime/memory_utils/memory_pool.h: device memory the tests allocate their data in */
class DevMemoryPool {
public:
    static DevMemoryPool &Instance();
    void AllocDevAddr(uint8_t **devAddr, const uint64_t size);
    void FreeDevAddr(void *ptr);
    bool CheckAllSentinels();
    void DestroyPool();
};

/* machine/runtime/context/device_launcher_context.h: set up and torn down around each test */
class DeviceLauncherContext {
public:
    static DeviceLauncherContext &Get();
    void Initialize();
    void Finalize();
    void SetCaptureMode(const bool captureMode);
    bool IsCaptureMode() const;
};

/* interface/machine/device/tilefwk (aikernel_tensor.h, aikernel_runtime_data_ring_buffer.h,
 * aikernel_device_task.h): the device-side tensor records, aggregates the tests brace-initialise */
constexpr int32_t DEV_SHAPE_DIM_MAX = 6;
struct DevShape {
    int dimSize{0};
    int dim[DEV_SHAPE_DIM_MAX];
    int64_t GetSize() const;
    bool Equal(const DevShape &s) const;
};
struct DevTensorData {
    uint64_t address{0};
    DevShape shape;
    int32_t dataType;
};
struct DevStartArgsBase {
    DevTensorData *devTensorList;
    uint64_t inputTensorSize;
    uint64_t outputTensorSize;
    int64_t *commContexts;
    uint64_t commGroupNum;
    int GetInputTensorSize() const;
    int GetOutputTensorSize() const;
    DevTensorData &GetInputTensor(int index);
    DevTensorData &GetOutputTensor(int index);
};
/* aicpu_common.h: the device arguments of a program (the fields tests read) */
#define DEVICE_TASK_TYPE_DYN 1
enum class ArchInfo : uint32_t { DAV_1001 = 1001, DAV_2201 = 2201, DAV_3510 = 3510, DAV_UNKNOWN };
struct DeviceArgs {
    uint32_t nrAic{0};
    uint32_t nrAiv{0};
    uint32_t nrAicpu{0};
    uint32_t nrValidAic{0};
    uint64_t sharedBuffer;
    uint64_t coreRegAddr;
    uint64_t corePmuRegAddr;
    uint64_t corePmuAddr;
    uint64_t taskType : 4;
    uint64_t dynamicCellMatchAddr{0};
    uint64_t dynamicCellMatchCapacity{0};
    uint32_t scheCpuNum{0};
    uint64_t devDfxArgAddr{0};
    uint32_t launchSchedAicpuNum{7};
    bool launchSchedSameCluster = true;
    bool enableEslModel = false;
    bool hasAicpuTask = false;
    bool enableAicoreResolve = false;
    ArchInfo archInfo{ArchInfo::DAV_2201};
    uint64_t GetBlockNum() const;
};
struct DynFuncHeader {
    uint64_t seqNo;
    uint32_t funcNum;
    uint32_t Size();
    uint64_t GetIndex();
};

/* interface/machine/device/tilefwk/aicpu_common.h, machine/utils/machine_ws_intf.h: the kernel's
 * launch arguments */
struct DeviceKernelArgsParameter {
    uint32_t runMode;
    uint32_t p1;
    uint64_t globalRound{0};
    uint64_t ctrlBlockNum{0};
};
struct DeviceKernelArgs {
    int64_t *ctrlFlowCache{nullptr};
    int64_t *inputs{nullptr};
    int64_t *outputs{nullptr};
    int64_t *workspace{nullptr};
    int64_t *tilingdata{nullptr};
    int64_t *cfgdata{nullptr};
    int64_t *commContexts{nullptr};
    uint64_t maxDynamicAssembleOutcastMem{0};
    uint64_t maxDynamicCellMatchTableMem{0};
    DeviceKernelArgsParameter parameter;
};

/* machine/host/mix_info.h: the mix-subgraph dump tests check */
namespace mix_info {
int DumpMixInfo(Function *topFunc);
} // namespace mix_info

namespace dynamic {
/* machine/runtime/launcher/device_launcher_types.h */
class DeviceTensorData {
public:
    DeviceTensorData();
    DeviceTensorData(DataType dtype, void *addr, const std::vector<int64_t> &shape,
                     TileOpFormat format = TileOpFormat::TILEOP_ND);
    DeviceTensorData(DataType dtype, uintptr_t addr, const std::vector<int64_t> &shape,
                     TileOpFormat format = TileOpFormat::TILEOP_ND);
    void *GetAddr() const;
    const std::vector<int64_t> &GetShape() const;
    DataType GetDataType() const;
    TileOpFormat Format() const;
    int64_t GetDataSize() const;
};
struct DeviceLauncherConfig {
    bool onBoard{true};
    int blockdim{0};
    int aicpuNum{5};
    int64_t dynWorkspaceSize{0};
    int64_t repeatNum{1};
    bool runModel{true};
    std::vector<uint64_t> hcclContext;
    bool controlFlowCache{false};
    bool cpuSeparate{false};
    uint64_t workspaceAddr{0};
    bool workspaceAllocByTorch{false};
    bool isCacheOriginShape{true};
    DeviceLauncherConfig();
    DeviceLauncherConfig(bool onboard, int tblockdim, int taicpunum);
    DeviceLauncherConfig(int64_t tdynWorkspaceSize);
    DeviceLauncherConfig(int64_t tdynWorkspaceSize, int64_t trepeatNum);
    DeviceLauncherConfig(const std::vector<uint64_t> &addrs);
    static DeviceLauncherConfig CreateConfigWithWorkspaceAddr(uint64_t workspaceAddr);
};

/* machine/utils/dynamic: the device program and its control-flow cache (dev_encode_types.h,
 * dev_encode_program_ctrlflow_cache.h, dev_encode_program.h) */
template <typename T> struct DevRelocVector {
    T &operator[](size_t idx);
    const T &operator[](size_t idx) const;
    T *begin();
    T *end();
    const T *begin() const;
    const T *end() const;
    size_t size() const;
    T *Data();
};
struct AddressDescriptor {
    static AddressDescriptor MakeFromAddress(uint64_t addr);
    bool IsAddress() const;
    uint64_t GetAddress() const;
    uint64_t GetAddressValue() const;
    bool IsNullAddress() const;
    bool IsRtOutcast() const;
};
struct DevAscendFunction {
    const char *GetRawName() const;
};
struct DevAscendFunctionDuppedData {
    AddressDescriptor GetOutcastAddress(int index) const;
    AddressDescriptor &GetOutcastAddress(int index);
};
struct DynFuncDataCache {
    DevAscendFunction *devFunc;
    DevAscendFunctionDuppedData *duppedData;
    const DynFuncDataCache &At(size_t index) const;
    DynFuncDataCache &At(size_t index);
};
struct DynDeviceTaskBase {
    uint64_t dynFuncDataCacheListSize;
    DynFuncHeader *GetDynFuncDataList();
    DynFuncDataCache *GetDynFuncDataCacheList();
    uint64_t GetIndex();
};
/* machine/utils/dynamic/device_task.h, machine/device/dynamic/context/device_execute_context.h: what
 * a registered task inspector is handed */
struct DynDeviceTask : DynDeviceTaskBase {};
struct DeviceExecuteContext;
using DeviceTaskInspectorEntry = void (*)(void *inspector_, DeviceExecuteContext *execCtx, DynDeviceTask *task);
struct DeviceTaskCache {
    DynDeviceTaskBase *dynTaskBase;
};
struct DevControlFlowCache {
    uint64_t allCacheSize{0};
    uint64_t usedCacheSize{0};
    bool isRecording{false};
    bool isActivated{false};
    bool isRelocMetaDev{false};
    bool isRelocDataDev{false};
    bool isCacheOriginShape{true};
    DevRelocVector<DevTensorData> inputTensorDataList;
    DevRelocVector<DevTensorData> outputTensorDataList;
    bool isRecordingStopped;
    uint64_t deviceTaskCount;
    uint64_t rootTaskCount;
    uint64_t cacheDataOffset;
    uint64_t deviceTaskSkippedCount;
    uint64_t contextWorkspaceAddr;
    DevRelocVector<DeviceTaskCache> deviceTaskCacheList;
    DevRelocVector<uint8_t> cacheData;
    uint64_t workspaceAddr;
    bool MatchInputOutput(DevStartArgsBase *startArgs) const;
    void TaskAddrRelocProgramAndCtrlCache(uint64_t srcProgram, uint64_t srcCtrlCache, uint64_t dstProgram,
                                          uint64_t dstCtrlCache);
    void RelocMetaCache(uint64_t srcCache, uint64_t dstCache);
};
struct DevAscendProgram {
    DeviceArgs devArgs;
    uint64_t workspaceSize;
    uint32_t slotSize;
    struct {
        struct {
            uint64_t rootInnerSpilledMem;
            uint64_t devTaskInnerExclusiveOutcasts;
            uint64_t maxStaticOutcastMem{0};
            uint64_t maxDynamicAssembleOutcastMem{0};
            uint64_t devTaskBoundaryOutcastNum{0};
            uint64_t devTaskInnerTemporalOutcastNum{0};
            uint32_t parallelism{1};
            uint64_t Total() const;
        } tensor;
        uint64_t Total() const;
    } memBudget;
    DevControlFlowCache controlFlowCache;
    void RelocProgram(uint64_t srcProgram, uint64_t dstProgram, bool relocFunc = false);
};

/* machine/runtime/memory_utils/emulation_memory_utils.h: host memory standing in for the device's */
struct EmulationMemoryUtils {
    EmulationMemoryUtils();
    uint8_t *AllocDev(size_t size, uint8_t **cachedDevAddrHolder);
    uint8_t *AllocZero(uint64_t size, uint8_t **cachedDevAddrHolder);
    uint8_t *CopyToDev(uint8_t *data, uint64_t size, uint8_t **cachedDevAddrHolder);
    template <typename T> T *CopyToDev(std::vector<T> data, uint8_t **cachedDevAddrHolder);
    uint8_t *CopyToDev(RawTensorData &data);
};

/* machine/runtime/launcher/device_launcher.h and emulation_launcher.h: running a built function
 * (the cached operator stays incomplete: tests only pass it on) */
class CachedOperator;
class DeviceLauncher {
public:
    static constexpr uint32_t kDefaultAicNum = 25;
    static constexpr uint32_t kDefaultAivNum = 50;
    static DevAscendProgram *GetDevProg(Function *func);
    static bool HasInplaceArgs(Function *function);
    static void CheckAscendDriverVersionOnboard();
    static void DeviceInitLauncherConfigForUser(std::vector<uint8_t> &devProgData);
    static void PrepareDevProgArgsCpuInfo(DevAscendProgram *devProg, DeviceLauncherConfig &config);
    static void PrepareDevProgArgs(DevAscendProgram *devProg, DeviceLauncherConfig &config, bool isDevice);
    template <typename DeviceMemoryTy>
    static void FillDeviceKernelArgs(DeviceMemoryTy &memUtils, std::vector<uint8_t> &devProgData,
                                     DeviceKernelArgs &kargs, const std::vector<std::string> &groupNames);
    template <typename DeviceMemoryTy>
    static void CopyFromDev(DeviceMemoryTy devMem, const std::vector<RawTensorDataPtr> &outputs);
    static int SetCaptureStream(RtStream aicoreStream, RtStream aicpuStream, bool &isCapture);
    static int RunWithProfile(RtStream aicoreStream, RtStream aicpuStream, bool isCapture);
    static int DynamicLaunchSynchronize(RtStream schedStream, RtStream ctrlStream, RtStream aicoreStream);
    static int DeviceSynchronize(RtStream aicpuStream, RtStream aicoreStream);
    static bool IsCaptureMode();
    static void SaveStream(AclRtStream aicoreStream);
    static void GetCaptureInfo(AclRtStream aicoreStream, AclMdlRI &rtModel);
    static void AddAicpuStream(const bool isCapture, AclMdlRI &rtModel);
    static int LaunchSyncTask(AclRtStream aicoreStream, bool isCaptureMode, int launchEarlyMode);
    static void SetDevRunCacheKernel(Function *func, uint8_t *devProg);
    static CachedOperator *GetDevRunCacheOperator(Function *func);
    static void SetDevPerfAddr(const bool debugEnable, const bool isCaptureMode);
    static void DumpIOTensorsWithCann(AclRtStream stream, std::vector<DeviceTensorData> &tensors,
                                      const std::string &funcName);
    static int RunPreSync(RtStream scheStream, RtStream ctrlStream, RtStream aicoreStream);
    static void DataDumpInit();
    static void DataDumpUnInit();
    template <typename DeviceMemoryTy>
    static void DeviceInitDistributedContext(DeviceMemoryTy &devMem, const std::vector<std::string> &groupNames,
                                             DeviceKernelArgs &kArgs);
    template <typename DeviceMemoryTy>
    static void DeviceInitTilingData(DeviceMemoryTy &devMem, DeviceKernelArgs &kArgs,
                                     const std::vector<uint8_t> &devProgData, DevControlFlowCache *ctrlFlowCache,
                                     const DeviceLauncherConfig &config, CachedOperator *cachedOperator);
    template <typename DeviceMemoryTy>
    static void DeviceInitKernelInOuts(DeviceMemoryTy &devMem, DeviceKernelArgs &kArgs,
                                       const std::vector<DeviceTensorData> &inputList,
                                       const std::vector<DeviceTensorData> &outputList,
                                       const std::vector<uint8_t> &disableL2List, uint64_t maxPatchCount = 0);
    template <typename DeviceMemoryTy>
    static std::pair<std::vector<DeviceTensorData>, std::vector<DeviceTensorData>>
    BuildInputOutputFromHost(DeviceMemoryTy &devMem, const std::vector<RawTensorDataPtr> &inputDataList,
                             const std::vector<RawTensorDataPtr> &outputDataList);
    static uint8_t *CopyControlFlowCache(DevControlFlowCache *ctrlCache);
    static void FreeControlFlowCache(uint8_t *ctrlCache);
    static void DeviceLauncherConfigFillDeviceInfo(const DeviceLauncherConfig &config);
    static int DeviceRunOnce(Function *function, DevControlFlowCache *hostCtrlCache = nullptr,
                             const DeviceLauncherConfig &config = DeviceLauncherConfig());
    static void SetDevRunCacheKernelEnable(Function *func, bool enabled);
    static bool IsDevRunCacheKernelEnable(Function *func);
};
class EmulationLauncher {
public:
    static int EmulationLaunchOnceWithHostTensorData(Function *function, const std::vector<DeviceTensorData> &inputList,
                                                     const std::vector<DeviceTensorData> &outputList,
                                                     DevControlFlowCache *ctrlCache, EmulationMemoryUtils &memUtils,
                                                     const DeviceLauncherConfig &config = DeviceLauncherConfig());
    static int EmulationBuildControlFlowCache(DeviceKernelArgs &kArgs);
    static DevControlFlowCache *CreateHostCtrlFlowCache(DevAscendProgram *devProg, Function *function,
                                                        EmulationMemoryUtils &memUtils);
    static int BuildControlFlowCacheWithEmulationTensorData(
        Function *function, const std::vector<DeviceTensorData> &inputList,
        const std::vector<DeviceTensorData> &outputList, CachedOperator *cachedOperator,
        DevControlFlowCache **outCtrlFlowCache, EmulationMemoryUtils &memUtils,
        const DeviceLauncherConfig &config = DeviceLauncherConfig());
    static int EmulationLaunchDeviceTensorData(Function *function, const std::vector<DeviceTensorData> &inputList,
                                               const std::vector<DeviceTensorData> &outputList,
                                               const DeviceLauncherConfig &config = DeviceLauncherConfig(),
                                               DevControlFlowCache *ctrlCache = nullptr);
    static int EmulationRunOnce(Function *function, DevControlFlowCache *ctrlCache,
                                const DeviceLauncherConfig &config = DeviceLauncherConfig());
    static int BuildControlFlowCache(Function *function, EmulationMemoryUtils &memUtils,
                                     const std::vector<DeviceTensorData> &inputList = {},
                                     const std::vector<DeviceTensorData> &outputList = {},
                                     DevControlFlowCache **outCtrlFlowCache = nullptr,
                                     const DeviceLauncherConfig &config = DeviceLauncherConfig());
    static int BuildControlFlowCache(Function *function, DevControlFlowCache **outCtrlFlowCache,
                                     EmulationMemoryUtils &memUtils,
                                     const DeviceLauncherConfig &config = DeviceLauncherConfig());
};

/* machine/runtime/launcher/device_launcher_binding.h: the exported-operator entry points and the
 * evaluator of a function's symbolic sizes over concrete tensors */
using DeviceStream = unsigned long long;
class ExportedOperator;
ExportedOperator *ExportedOperatorBegin();
void ExportedOperatorEnd(ExportedOperator *op);
int ExportedOperatorDeviceLaunchOnceWithDeviceTensorData(ExportedOperator *op,
                                                         const std::vector<DeviceTensorData> &inputList,
                                                         const std::vector<DeviceTensorData> &outputList,
                                                         DeviceStream aicoreStream, bool streamSynchronize,
                                                         uint8_t *devCtrlCache = nullptr,
                                                         const DeviceLauncherConfig &config = DeviceLauncherConfig());
struct Evaluator {
    /* the dictionary is the function's own (DyndevFunctionAttribute::inputSymbolDict) */
    Evaluator(decltype(DyndevFunctionAttribute::inputSymbolDict) &symbolDictArg,
              const std::vector<DeviceTensorData> *inputsArg, const std::vector<DeviceTensorData> *outputsArg);
    int64_t Evaluate(const SymbolicScalar &scalar) const;
};
} // namespace dynamic
} // namespace tile_fwk
} // namespace npu

#endif /* POOLCHECK_STUB_MACHINE_H */
