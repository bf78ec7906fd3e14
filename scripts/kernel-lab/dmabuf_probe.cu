// Can the host CPU map device memory on this machine? (A kernel that polls device memory the host
// stores into would not read host memory at all.) Exports a cuMemAlloc range as a dma-buf, maps the
// fd, and looks for GDRCopy's driver; then asks the same of managed memory: with its preferred
// location on the GPU and the CPU advised as an accessor, does a host store land in device memory
// (a mapping) or pull the page back to the host (a migration), which the GPU would then poll over
// PCIe again? Build and run on the GPU machine (it has libcuda):
//   nvcc -O2 -arch=sm_90 -o /tmp/dmabuf_probe scripts/kernel-lab/dmabuf_probe.cu -lcuda && /tmp/dmabuf_probe
#include <cuda.h>
#include <cstdio>
#include <cstring>
#include <cerrno>
#include <sys/mman.h>
#include <unistd.h>
#define CK(x) do { CUresult r = (x); if (r != CUDA_SUCCESS) { const char* s; cuGetErrorString(r, &s); printf("%s -> %d %s\n", #x, r, s); return 1; } } while (0)
#include <chrono>
// Where the managed page lives: the location of its last prefetch (or -2 for none) is all the driver
// API reports, so the probe times a GPU read of it instead: an L2/HBM read or a fault and migration.
extern "C" __global__ void readWord(const unsigned* word, unsigned long long* cycles, unsigned* value) {
  long long start = clock64();
  *value = *(volatile const unsigned*)word;
  *cycles = clock64() - start;
}
static int managedProbe(CUdevice dev) {
  int direct = 0, concurrent = 0, pageable = 0, hostTables = 0;
  cuDeviceGetAttribute(&direct, CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST, dev);
  cuDeviceGetAttribute(&concurrent, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, dev);
  cuDeviceGetAttribute(&pageable, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS, dev);
  cuDeviceGetAttribute(&hostTables, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES, dev);
  printf("DIRECT_MANAGED_MEM_ACCESS_FROM_HOST=%d CONCURRENT_MANAGED_ACCESS=%d PAGEABLE_MEMORY_ACCESS=%d USES_HOST_PAGE_TABLES=%d\n",
      direct, concurrent, pageable, hostTables);
  unsigned* word; unsigned long long* cycles; unsigned* value;
  if (cudaMallocManaged(&word, 1 << 16) != cudaSuccess || cudaMalloc(&cycles, 8) != cudaSuccess || cudaMalloc(&value, 4) != cudaSuccess) {
    printf("managed allocation failed\n"); return 1;
  }
  cudaMemLocation gpu = {cudaMemLocationTypeDevice, 0};
  cudaMemLocation cpu = {cudaMemLocationTypeHost, 0};
  printf("advise preferred=GPU: %s\n", cudaGetErrorString(cudaMemAdvise(word, 1 << 16, cudaMemAdviseSetPreferredLocation, gpu)));
  printf("advise accessed-by=CPU: %s\n", cudaGetErrorString(cudaMemAdvise(word, 1 << 16, cudaMemAdviseSetAccessedBy, cpu)));
  for (int round = 0; round < 3; round++) {
    printf("prefetch to GPU: %s\n", cudaGetErrorString(cudaMemPrefetchAsync(word, 1 << 16, gpu, 0, 0)));
    cudaDeviceSynchronize();
    unsigned long long c; unsigned v;
    readWord<<<1, 1>>>(word, cycles, value); cudaDeviceSynchronize();
    cudaMemcpy(&c, cycles, 8, cudaMemcpyDeviceToHost);
    printf("round %d: GPU read, page on the GPU: %llu cycles\n", round, c);
    auto t0 = std::chrono::steady_clock::now();
    ((volatile unsigned*)word)[0] = 1000 + round;
    auto t1 = std::chrono::steady_clock::now();
    for (int i = 1; i < 1000; i++) ((volatile unsigned*)word)[0] = 1000 + round;
    auto t2 = std::chrono::steady_clock::now();
    printf("round %d: first host store %.2f us, next 999 stores %.3f us each\n", round,
        std::chrono::duration<double, std::micro>(t1 - t0).count(), std::chrono::duration<double, std::micro>(t2 - t1).count() / 999);
    readWord<<<1, 1>>>(word, cycles, value); cudaDeviceSynchronize();
    cudaMemcpy(&c, cycles, 8, cudaMemcpyDeviceToHost); cudaMemcpy(&v, value, 4, cudaMemcpyDeviceToHost);
    readWord<<<1, 1>>>(word, cycles, value); cudaDeviceSynchronize();
    unsigned long long again; cudaMemcpy(&again, cycles, 8, cudaMemcpyDeviceToHost);
    printf("round %d: GPU read after the host stores: %llu cycles (value %u), again %llu cycles\n", round, c, v, again);
  }
  return 0;
}
int main() {
  CK(cuInit(0));
  CUdevice dev; CK(cuDeviceGet(&dev, 0));
  CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
  int dmabuf = 0; cuDeviceGetAttribute(&dmabuf, CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED, dev);
  printf("DMA_BUF_SUPPORTED=%d\n", dmabuf);
  size_t size = 2 << 20;
  CUdeviceptr d; CK(cuMemAlloc(&d, size));
  int fd = -1;
  CUresult r = cuMemGetHandleForAddressRange(&fd, d, size, CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0);
  printf("cuMemGetHandleForAddressRange -> %d fd=%d\n", r, fd);
  if (r == CUDA_SUCCESS) {
    void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) printf("mmap(dma-buf) failed: %s\n", strerror(errno));
    else { ((volatile unsigned*)p)[0] = 42u; unsigned v; CK(cuMemcpyDtoH(&v, d, 4)); printf("mmap ok, device sees %u\n", v); }
  }
  printf("gdrdrv: %s\n", access("/dev/gdrdrv", F_OK) == 0 ? "present" : "absent");
  return managedProbe(dev);
}
